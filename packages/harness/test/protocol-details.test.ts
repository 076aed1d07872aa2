/**
 * Protocol details A2A clients and the TCK look at: the card at 0.2's path,
 * GET on the JSON-RPC endpoint, the HTTP statuses of A2A 1.0's table, an
 * idempotent CancelTask (SEMANTICS §4), and 0.3's names in 0.3's error text.
 */
import { TaskState } from '@a2a-js/sdk';
import { ServerCallContext, UnauthenticatedUser } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rest, rpc, userText } from 'a2a-testing/http';
import { rawRequest } from 'a2a-testing/raw-http';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

async function newTask(): Promise<string> {
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText('/help') });
  return body.result.task.id as string;
}

describe('the card', () => {
  it('is served at /.well-known/agent.json too, the same card', async () => {
    const current = await fetch(`${harness.url}/.well-known/agent-card.json`);
    const legacy = await fetch(`${harness.url}/.well-known/agent.json`);
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('access-control-allow-origin')).toBeNull();
    expect(await legacy.json()).toEqual(await current.json());
  });
});

describe('the JSON-RPC endpoint', () => {
  it.each([
    ['no headers', {}],
    ['A2A 1.0', { 'A2A-Version': '1.0' }],
    ['a JSON content type', { 'A2A-Version': '1.0', 'content-type': 'application/json' }],
  ])('answers GET (%s) with 405, Allow: POST and a JSON-RPC error', async (_name, headers) => {
    const response = await fetch(`${harness.url}/a2a/jsonrpc`, { headers });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const body = (await response.json()) as { jsonrpc: string; error: { code: number } };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.code).toBe(-32600);
  });

  it('answers GET with a body, or any other method, with 405 too', async () => {
    const headers = { 'A2A-Version': '1.0', 'Content-Type': 'application/json' };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await rawRequest(harness.url, method, '/a2a/jsonrpc', headers, body);
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('POST');
    }
    const empty = await rawRequest(harness.url, 'GET', '/a2a/jsonrpc', headers, '{}');
    expect(empty.status).toBe(405);
  });
});

describe('HTTP+JSON statuses', () => {
  it('ContentTypeNotSupported is 415', async () => {
    const response = await fetch(`${harness.url}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'A2A-Version': '1.0' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(415);
    expect(body.error.message).toContain('Content-Type');
  });

  it('a file part (ContentTypeNotSupported from the handler) is 415 too', async () => {
    const message = { ...userText(''), parts: [{ url: 'https://example.test/a.png' }] };
    const response = await rest(harness.url, '/message:send', { message });
    expect(response.status).toBe(415);
  });

  it('TaskNotCancelable is 409 (and -32002 on JSON-RPC)', async () => {
    // A task that ended otherwise than canceled, as another agent on this database left it.
    const id = crypto.randomUUID();
    await harness.harness.store.save(
      {
        id,
        contextId: crypto.randomUUID(),
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: undefined },
        history: [],
        artifacts: [],
        metadata: {},
      },
      new ServerCallContext({ user: new UnauthenticatedUser() }),
    );
    const viaRest = await rest(harness.url, `/tasks/${id}:cancel`, {});
    expect(viaRest.status).toBe(409);
    const viaRpc = await rpc(harness.url, 'CancelTask', { id });
    expect(viaRpc.body.error?.code).toBe(-32002);
  });
});

describe('CancelTask (SEMANTICS §4)', () => {
  it('on a canceled task succeeds again and returns the task, on both bindings', async () => {
    const id = await newTask();
    const first = await rpc(harness.url, 'CancelTask', { id });
    expect(first.body.result.status.state).toBe('TASK_STATE_CANCELED');
    const again = await rpc(harness.url, 'CancelTask', { id });
    expect(again.body.error).toBeUndefined();
    expect(again.body.result.id).toBe(id);
    expect(again.body.result.status.state).toBe('TASK_STATE_CANCELED');
    const viaRest = await rest(harness.url, `/tasks/${id}:cancel`, {});
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.status.state).toBe('TASK_STATE_CANCELED');
  });
});

describe('A2A 0.3 clients', () => {
  it('read 0.3 state names in error text', async () => {
    const id = await newTask();
    await rpc(harness.url, 'CancelTask', { id });
    const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: crypto.randomUUID(),
            role: 'user',
            taskId: id,
            parts: [{ kind: 'text', text: 'hello again' }],
          },
        },
      }),
    });
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('(canceled)');
    expect(body.error.message).not.toContain('TASK_STATE_');
  });
});
