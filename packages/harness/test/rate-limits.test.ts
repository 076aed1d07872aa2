/**
 * Rate limits per principal over HTTP: a token bucket for commands and another
 * for turns; a caller over a limit gets 429 with Retry-After, in the error shape
 * of the binding it used, and other callers are not touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { RATE_LIMITED_CODE } from '../src/serve/rate-limits.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { headers, rest, rpc, userText } from 'a2a-testing/http';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const CAROL = 'carol-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB},carol=${CAROL}`)),
    // One token a minute: a bucket spent in this test stays spent for its length.
    config: { limits: { commandsPerMinute: 1, commandBurst: 2, turnsPerMinute: 1, turnBurst: 1 } },
  });
});
afterAll(() => harness.stop());

const rpcSend = (key: string, text: string) =>
  rpc(harness.url, 'SendMessage', { message: userText(text) }, as(key));
const restSend = (key: string, text: string) =>
  rest(harness.url, '/message:send', { message: userText(text) }, as(key));

interface RpcRefusal {
  jsonrpc: string;
  id: unknown;
  error: { code: number; message: string; data?: unknown };
}

function expectRetryAfter(response: { headers: Headers }): number {
  const seconds = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  return seconds;
}

describe('commands', () => {
  it('a principal over its command limit gets 429 with Retry-After on JSON-RPC and HTTP+JSON', async () => {
    expect((await rpcSend(ALICE, '/help')).body.result.task).toBeDefined();
    expect((await rpcSend(ALICE, '/help')).body.result.task).toBeDefined();

    const overRpc = await rpcSend(ALICE, '/help');
    expect(overRpc.status).toBe(429);
    const seconds = expectRetryAfter(overRpc);
    const refusal = overRpc.body as RpcRefusal;
    expect(refusal.jsonrpc).toBe('2.0');
    expect(refusal.id).toEqual(expect.any(Number));
    expect(refusal.error.code).toBe(RATE_LIMITED_CODE);
    expect(refusal.error.message).toContain('rate limit');
    expect(refusal.error.data).toEqual({ retryAfterSeconds: seconds });

    const overRest = await restSend(ALICE, '/help');
    expect(overRest.status).toBe(429);
    const restSeconds = expectRetryAfter(overRest);
    expect(overRest.headers.get('content-type')).toMatch(/^application\/a2a\+json/);
    expect(overRest.body.error).toEqual({
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      message: expect.stringContaining('rate limit'),
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.RetryInfo',
          retryDelay: `${restSeconds}s`,
        },
      ],
    });

    // A stream is refused the same way, before it starts.
    const stream = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...headers(), ...as(ALICE).headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'stream-1',
        method: 'SendStreamingMessage',
        params: { message: userText('/help') },
      }),
    });
    expect(stream.status).toBe(429);
    expect(stream.headers.get('retry-after')).not.toBeNull();
    expect(((await stream.json()) as { id: string }).id).toBe('stream-1');
  });

  it('another principal is unaffected', async () => {
    expect((await rpcSend(BOB, '/help')).status).toBe(200);
    const viaRest = await restSend(BOB, '/help');
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.task).toBeDefined();
  });

  it('a message that only looks like a command is a turn: /nosuch is not registered', async () => {
    // Alice's command bucket is empty; her turn bucket is not, and this is a turn.
    const response = await rpcSend(ALICE, '/nosuch command');
    expect(response.status).toBe(200);
    expect(response.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});

describe('turns', () => {
  it('have their own limit: spent, they are refused while commands of another bucket still run', async () => {
    const turn = await rpcSend(CAROL, 'hello');
    expect(turn.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const tasksBefore = (await rpc(harness.url, 'ListTasks', {}, as(CAROL))).body.result.tasks;

    const overRpc = await rpcSend(CAROL, 'hello again');
    expect(overRpc.status).toBe(429);
    expectRetryAfter(overRpc);
    expect((overRpc.body as RpcRefusal).error.code).toBe(RATE_LIMITED_CODE);
    const overRest = await restSend(CAROL, 'hello once more');
    expect(overRest.status).toBe(429);
    expectRetryAfter(overRest);
    expect(overRest.body.error.status).toBe('RESOURCE_EXHAUSTED');
    // Refused before the SDK: no task was made for either.
    const tasksAfter = (await rpc(harness.url, 'ListTasks', {}, as(CAROL))).body.result.tasks;
    expect(tasksAfter).toHaveLength(tasksBefore.length);

    // Out of turns, Carol can still run commands.
    expect((await rpcSend(CAROL, '/help')).status).toBe(200);
    expect((await restSend(CAROL, '/help')).status).toBe(200);
  });

  it('other calls are not limited', async () => {
    const { body } = await rpc(harness.url, 'ListTasks', {}, as(ALICE));
    expect(body.result.tasks.length).toBeGreaterThan(0);
  });
});

describe('A2A 0.3 method names', () => {
  it('count too: a 0.3 message/send is charged as what it runs', async () => {
    const dave = await startHarness({
      config: { limits: { turnsPerMinute: 1, turnBurst: 1 } },
    });
    try {
      // No A2A-Version header: a 0.3 request, served by the SDK's compat layer.
      const send = () =>
        fetch(`${dave.url}/a2a/jsonrpc`, {
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
                parts: [{ kind: 'text', text: 'hi' }],
              },
            },
          }),
        });
      const first = await send();
      expect(first.status).toBe(200);
      expect(((await first.json()) as { result: { kind: string } }).result.kind).toBe('task');
      const refused = await send();
      expect(refused.status).toBe(429);
      expectRetryAfter(refused);
      expect(((await refused.json()) as RpcRefusal).error.code).toBe(RATE_LIMITED_CODE);
    } finally {
      await dave.stop();
    }
  });
});

describe('without API keys', () => {
  it('the caller is its address', async () => {
    const open = await startHarness({ config: { limits: { turnsPerMinute: 1, turnBurst: 1 } } });
    try {
      const send = () => rpc(open.url, 'SendMessage', { message: userText('hello') });
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(429);
      expectRetryAfter(refused);
    } finally {
      await open.stop();
    }
  });
});
