/**
 * Where the SDK's 0.3 layer falls short, answered in front of it
 * (src/serve/legacy-v03): raw 0.3 JSON-RPC requests, as clients other than
 * the 0.3 SDK's send them.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({ config: { offline: { latencyMs: 5 } } });
});
afterAll(() => harness.stop());

/** A 0.3 JSON-RPC call: no A2A-Version header, 0.3 method names and shapes. */
async function call03(method: string, params: unknown): Promise<any> {
  const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

const message = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts,
  ...extra,
});

describe('message/send waits for the answer unless told blocking: false, as 0.3 servers do', () => {
  it('a configuration without blocking still gets the answer', async () => {
    const body = await call03('message/send', {
      message: message([{ kind: 'text', text: 'hello' }]),
      configuration: { acceptedOutputModes: ['text/plain'] },
    });
    expect(body.result.status.state).toBe('input-required');
    expect(body.result.status.message.parts[0].text).toContain('You said: hello');
  });

  it('blocking: false returns at once', async () => {
    const body = await call03('message/send', {
      message: message([{ kind: 'text', text: 'hello' }]),
      configuration: { blocking: false },
    });
    expect(['submitted', 'working']).toContain(body.result.status.state);
  });
});

describe('0.3 params of the wrong types get -32602 and a clear message, not -32603', () => {
  it.each([
    ['a file part without its file', 'message/send', { message: message([{ kind: 'file' }]) }],
    ['a text that is a number', 'message/send', { message: message([{ kind: 'text', text: 5 }]) }],
    [
      'a taskId that is a number',
      'message/send',
      { message: message([{ kind: 'text', text: 'hi' }], { taskId: 7 }) },
    ],
    ['an unknown role', 'message/send', { message: { ...message([]), role: 'robot' } }],
    ['a task id that is a number', 'tasks/get', { id: 5 }],
    ['a negative historyLength', 'tasks/get', { id: 'x', historyLength: -1 }],
  ])('%s', async (_what, method, params) => {
    const body = await call03(method, params);
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(new RegExp(`^Invalid params for ${method}: params\\.`));
  });

  it('and the server keeps serving', async () => {
    const body = await call03('message/send', {
      message: message([{ kind: 'text', text: '/help' }]),
    });
    expect(body.result.status.message.metadata).toEqual({ command: 'help' });
  });
});
