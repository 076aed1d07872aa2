/**
 * Access with API keys: the card is public and declares the bearer scheme;
 * every other call needs a key; each task belongs to the principal who made it,
 * and to anyone else it does not exist — on JSON-RPC, HTTP+JSON and SSE alike.
 */
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { UNAUTHENTICATED_CODE } from '../src/serve/auth.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { logLines, type LogLine } from 'a2a-testing/log-lines';
import { headers, rest, resultOf, rpc, rpcStream, SseReader, userText } from 'a2a-testing/http';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB}`)),
  });
});
afterAll(() => harness.stop());

async function aliceTask(
  text = '/title Alice private',
): Promise<{ id: string; contextId: string }> {
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText(text) }, as(ALICE));
  return body.result.task;
}

/** A stream refused before it starts answers in JSON; one refused later, in its first event. */
async function streamErrorCode(method: string, params: unknown, key: string): Promise<number> {
  const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...headers(), ...as(key).headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = response.headers.get('content-type')?.startsWith('application/json')
    ? await response.json()
    : await new SseReader(response).next();
  return (body as { error: { code: number } }).error.code;
}

async function historyLength(taskId: string): Promise<number> {
  const { body } = await rpc(harness.url, 'GetTask', { id: taskId }, as(ALICE));
  return body.result.history.length;
}

describe('the card', () => {
  it('stays public and declares the bearer scheme as required', async () => {
    const response = await fetch(`${harness.url}/.well-known/agent-card.json`);
    expect(response.status).toBe(200);
    const card = await response.json();
    expect(card.securitySchemes).toEqual({
      bearer: { httpAuthSecurityScheme: expect.objectContaining({ scheme: 'Bearer' }) },
    });
    expect(card.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
  });

  it('health check and CORS preflight need no key', async () => {
    expect((await fetch(`${harness.url}/healthz`)).status).toBe(200);
    const preflight = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://elsewhere.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
  });
});

describe('a call without a valid key', () => {
  const keys = {
    missing: {},
    wrong: as('not-a-key'),
    'another scheme': { headers: { authorization: `Basic ${ALICE}` } },
    'empty bearer': { headers: { authorization: 'Bearer ' } },
  };

  it.each(Object.entries(keys))('JSON-RPC (%s key): 401 and one message', async (_, options) => {
    const response = await rpc(harness.url, 'GetTask', { id: crypto.randomUUID() }, options);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(response.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: UNAUTHENTICATED_CODE, message: expect.stringMatching(/^Unauthenticated/) },
    });
  });

  it.each(Object.entries(keys))('HTTP+JSON (%s key): 401 UNAUTHENTICATED', async (_, options) => {
    const response = await rest(harness.url, '/tasks', undefined, options);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(response.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });

  it('the refusal reads the same whether the key is missing or wrong', async () => {
    const missing = await rpc(harness.url, 'ListTasks', {});
    const wrong = await rpc(harness.url, 'ListTasks', {}, as(`${ALICE}x`));
    expect(wrong.body).toEqual(missing.body);
    expect(JSON.stringify(wrong.body)).not.toContain(ALICE);
  });

  it('streams (SSE) are refused before they start, and nothing is stored', async () => {
    const { response } = await rpcStream(harness.url, 'SendStreamingMessage', {
      message: userText('/title sneaky'),
    });
    expect(response.status).toBe(401);
    const viaRest = await rest(harness.url, '/message:stream', {
      message: userText('/title sneaky'),
    });
    expect(viaRest.status).toBe(401);
    const listed = await rpc(harness.url, 'ListTasks', { pageSize: 100 }, as(ALICE));
    const titles = listed.body.result.tasks.map((t: any) => t.metadata?.['a2a-harness']?.title);
    expect(titles).not.toContain('sneaky');
  });
});

describe("another principal's task does not exist for them", () => {
  let task: { id: string; contextId: string };
  beforeAll(async () => {
    task = await aliceTask();
  });

  it('JSON-RPC: GetTask, CancelTask, SendMessage (command and prompt) give task-not-found', async () => {
    const calls: [string, unknown][] = [
      ['GetTask', { id: task.id }],
      ['CancelTask', { id: task.id }],
      ['SendMessage', { message: userText('/help', { taskId: task.id }) }],
      ['SendMessage', { message: userText('/title stolen', { taskId: task.id }) }],
      ['SendMessage', { message: userText('hello', { taskId: task.id }) }],
    ];
    const before = await historyLength(task.id);
    for (const [method, params] of calls) {
      const { body } = await rpc(harness.url, method, params, as(BOB));
      expect(body.error?.code, method).toBe(-32001);
    }
    expect(await historyLength(task.id)).toBe(before);
    const mine = await rpc(harness.url, 'GetTask', { id: task.id }, as(ALICE));
    expect(mine.body.result.metadata['a2a-harness'].title).toBe('Alice private');
    expect(mine.body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('HTTP+JSON: get, cancel and message:send give 404', async () => {
    const get = await rest(harness.url, `/tasks/${task.id}`, undefined, as(BOB));
    expect(get.status).toBe(404);
    const cancel = await rest(harness.url, `/tasks/${task.id}:cancel`, {}, as(BOB));
    expect(cancel.status).toBe(404);
    const send = await rest(
      harness.url,
      '/message:send',
      { message: userText('/help', { taskId: task.id }) },
      as(BOB),
    );
    expect(send.status).toBe(404);
  });

  it('SSE: SubscribeToTask and streamed messages give task-not-found', async () => {
    expect(await streamErrorCode('SubscribeToTask', { id: task.id }, BOB)).toBe(-32001);
    for (const text of ['/help', 'hello']) {
      const message = userText(text, { taskId: task.id });
      expect(await streamErrorCode('SendStreamingMessage', { message }, BOB)).toBe(-32001);
    }
    const viaRest = await rest(harness.url, `/tasks/${task.id}:subscribe`, undefined, as(BOB));
    expect(viaRest.status).toBe(404);
    const streamedRest = await rest(
      harness.url,
      '/message:stream',
      { message: userText('hello', { taskId: task.id }) },
      as(BOB),
    );
    expect(streamedRest.status).toBe(404);
  });

  it('the owner still subscribes and talks to it', async () => {
    const subscribe = await rpcStream(harness.url, 'SubscribeToTask', { id: task.id }, as(ALICE));
    expect(resultOf(await subscribe.events.next()).task.id).toBe(task.id);
    await subscribe.events.cancel();
    const { body } = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('hello', { taskId: task.id }) },
      as(ALICE),
    );
    expect(body.result.task.status.message.parts[0].text).toContain('hello');
  });
});

describe('lists show only the caller’s own tasks', () => {
  it('ListTasks on JSON-RPC and HTTP+JSON', async () => {
    const alices = await aliceTask('/title listed for alice');
    const bobs = (
      await rpc(harness.url, 'SendMessage', { message: userText('/title bob') }, as(BOB))
    ).body.result.task;
    const bobList = await rpc(harness.url, 'ListTasks', { pageSize: 100 }, as(BOB));
    const bobIds = bobList.body.result.tasks.map((t: any) => t.id);
    expect(bobIds).toContain(bobs.id);
    expect(bobIds).not.toContain(alices.id);
    const aliceList = await rest(harness.url, '/tasks?pageSize=100', undefined, as(ALICE));
    const aliceIds = aliceList.body.tasks.map((t: any) => t.id);
    expect(aliceIds).toContain(alices.id);
    expect(aliceIds).not.toContain(bobs.id);
  });

  it('another caller’s context is not found, so its tasks cannot be listed from inside it (SEMANTICS §10)', async () => {
    const alices = await aliceTask('/title in a context of her own');
    const { body } = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/tasks', { contextId: alices.contextId }) },
      as(BOB),
    );
    expect(body.error?.code).toBe(-32001);
    expect(body.error?.message).toBe(`Context not found: ${alices.contextId}`);
  });
});

describe('sub-tasks belong to the caller', () => {
  it.each(['/spawn write a haiku', '/fork'])('%s', async (command) => {
    const parent = await aliceTask('/title parent');
    const { body } = await rpc(
      harness.url,
      'SendMessage',
      { message: userText(command, { taskId: parent.id }) },
      as(ALICE),
    );
    const child = body.result.task.status.message.metadata.task_ref as string;
    expect(child).toMatch(/^[0-9a-f-]{36}$/);
    expect((await rpc(harness.url, 'GetTask', { id: child }, as(ALICE))).body.result.id).toBe(
      child,
    );
    expect((await rpc(harness.url, 'GetTask', { id: child }, as(BOB))).body.error?.code).toBe(
      -32001,
    );
  });
});

describe('binding without keys', () => {
  function capture(): { logger: Logger; lines: LogLine[] } {
    const { stream, lines } = logLines();
    return { logger: pino<never>({ level: 'info' }, stream), lines };
  }

  it('warns loudly on a non-loopback interface', async () => {
    const { logger, lines } = capture();
    const open = await startHarness({ host: '0.0.0.0', logger });
    await open.stop();
    const warning = lines.find((l) => l.level === 40 && /WITHOUT API KEYS/.test(String(l.msg)));
    expect(warning).toBeDefined();
  });

  it('says nothing of the kind on loopback, or with keys', async () => {
    for (const options of [
      { host: '127.0.0.1' },
      { host: '0.0.0.0', apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE}`)) },
    ]) {
      const { logger, lines } = capture();
      const running = await startHarness({ ...options, logger });
      await running.stop();
      expect(lines.some((l) => /WITHOUT API KEYS/.test(String(l.msg)))).toBe(false);
    }
  });
});
