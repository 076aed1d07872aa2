/**
 * Push notifications end to end: a real webhook receiver on loopback (the
 * harness is told to allow loopback, `push.allowPrivateNetworks`) gets every
 * state change and every command reply of a task, with the client's token;
 * retries and the give-up bound; the configs' calls on JSON-RPC and HTTP+JSON,
 * for the task's owner only, on SQLite and PostgreSQL; the SSRF refusals; and
 * two instances on one PostgreSQL that send each event once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rest, resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { storeKinds, testDatabaseUrl } from 'a2a-testing/stores';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
const keys = () => new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB}`));

const MAX_ATTEMPTS = 4;
const push = (extra: Record<string, unknown> = {}) => ({
  offline: { latencyMs: 5 },
  push: {
    enabled: true,
    allowPrivateNetworks: true,
    maxAttempts: MAX_ATTEMPTS,
    retryDelayMs: 20,
    maxRetryDelayMs: 80,
    timeoutMs: 5_000,
    ...extra,
  },
});

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A webhook receiver: records every POST, and answers each with the next planned status (200 when none is left). */
interface Receiver {
  url: string;
  received: Received[];
  plan: number[];
  close(): Promise<void>;
}

const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function startReceiver(answer?: (response: http.ServerResponse) => void): Promise<Receiver> {
  const received: Received[] = [];
  const plan: number[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      if (answer) answer(response);
      else response.writeHead(plan.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    plan,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  receivers.push(receiver);
  return receiver;
}

const updatesOf = (receiver: Receiver, taskId: string) =>
  receiver.received.map((r) => r.body.statusUpdate).filter((u) => u?.taskId === taskId);
const statesOf = (receiver: Receiver, taskId: string) =>
  updatesOf(receiver, taskId).map((u) => u.status.state as string);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function newTask(url: string, key?: string): Promise<string> {
  const { body } = await rpc(
    url,
    'SendMessage',
    { message: userText('/title push test') },
    key ? as(key) : {},
  );
  return body.result.task.id as string;
}

async function createConfig(
  url: string,
  taskId: string,
  config: Record<string, unknown>,
  key?: string,
) {
  return rpc(url, 'CreateTaskPushNotificationConfig', { taskId, ...config }, key ? as(key) : {});
}

describe.each(storeKinds)('on %s, with API keys', (kind) => {
  let harness: TestHarness;
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = testDatabaseUrl(kind);
    harness = await startHarness({ config: push(), databaseUrl, apiKeys: keys() });
  });
  afterAll(() => harness.stop());

  it('the card says pushNotifications: true', async () => {
    const card = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json();
    expect(card.capabilities.pushNotifications).toBe(true);
  });

  it('creates, gets, lists and deletes configs over JSON-RPC; a deleted config is gone, and deleting it again is no error', async () => {
    const taskId = await newTask(harness.url, ALICE);
    const created = await createConfig(
      harness.url,
      taskId,
      { url: 'http://127.0.0.1:9/hook', token: 'tok-1' },
      ALICE,
    );
    const config = created.body.result;
    expect(config).toMatchObject({ taskId, url: 'http://127.0.0.1:9/hook', token: 'tok-1' });
    expect(config.id).toMatch(/.+/);
    await createConfig(harness.url, taskId, { id: 'second', url: 'http://127.0.0.1:9/b' }, ALICE);

    const got = await rpc(
      harness.url,
      'GetTaskPushNotificationConfig',
      { taskId, id: config.id },
      as(ALICE),
    );
    expect(got.body.result).toEqual(config);
    const listed = await rpc(harness.url, 'ListTaskPushNotificationConfigs', { taskId }, as(ALICE));
    expect(listed.body.result.configs.map((c: { id: string }) => c.id).sort()).toEqual(
      [config.id, 'second'].sort(),
    );

    const deleted = await rpc(
      harness.url,
      'DeleteTaskPushNotificationConfig',
      { taskId, id: config.id },
      as(ALICE),
    );
    expect(deleted.body.error).toBeUndefined();
    const again = await rpc(
      harness.url,
      'DeleteTaskPushNotificationConfig',
      { taskId, id: config.id },
      as(ALICE),
    );
    expect(again.body.error).toBeUndefined();
    const gone = await rpc(
      harness.url,
      'GetTaskPushNotificationConfig',
      { taskId, id: config.id },
      as(ALICE),
    );
    expect(gone.body.error?.code).toBe(-32001);
    const left = await rpc(harness.url, 'ListTaskPushNotificationConfigs', { taskId }, as(ALICE));
    expect(left.body.result.configs.map((c: { id: string }) => c.id)).toEqual(['second']);
  });

  it('serves the same calls over HTTP+JSON', async () => {
    const taskId = await newTask(harness.url, ALICE);
    const path = `/tasks/${taskId}/pushNotificationConfigs`;
    const created = await rest(
      harness.url,
      path,
      { url: 'http://127.0.0.1:9/rest', id: 'rest-1' },
      as(ALICE),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'rest-1', taskId, url: 'http://127.0.0.1:9/rest' });
    const listed = await rest(harness.url, path, undefined, as(ALICE));
    expect(listed.body.configs).toHaveLength(1);
    const one = await rest(harness.url, `${path}/rest-1`, undefined, as(ALICE));
    expect(one.body.id).toBe('rest-1');
    const deleted = await rest(harness.url, `${path}/rest-1`, undefined, {
      ...as(ALICE),
      method: 'DELETE',
    });
    expect(deleted.status).toBe(204);
    const missing = await rest(harness.url, `${path}/rest-1`, undefined, as(ALICE));
    expect(missing.status).toBe(404);
  });

  it('another principal can neither make, read, list nor delete the configs of a task it does not own', async () => {
    const taskId = await newTask(harness.url, ALICE);
    const mine = await createConfig(
      harness.url,
      taskId,
      { id: 'alices', url: 'http://127.0.0.1:9/a', token: 'secret' },
      ALICE,
    );
    expect(mine.body.result.id).toBe('alices');

    const made = await createConfig(harness.url, taskId, { url: 'http://127.0.0.1:9/b' }, BOB);
    expect(made.body.error?.code).toBe(-32001);
    for (const [method, params] of [
      ['GetTaskPushNotificationConfig', { taskId, id: 'alices' }],
      ['ListTaskPushNotificationConfigs', { taskId }],
      ['DeleteTaskPushNotificationConfig', { taskId, id: 'alices' }],
    ] as const) {
      const answer = await rpc(harness.url, method, params, as(BOB));
      expect(answer.body.error?.code, method).toBe(-32001);
      expect(JSON.stringify(answer.body)).not.toContain('secret');
    }
    const rested = await rest(
      harness.url,
      `/tasks/${taskId}/pushNotificationConfigs`,
      undefined,
      as(BOB),
    );
    expect(rested.status).toBe(404);
    // Still there for its owner.
    const listed = await rpc(harness.url, 'ListTaskPushNotificationConfigs', { taskId }, as(ALICE));
    expect(listed.body.result.configs).toEqual([mine.body.result]);
  });

  it('sends every state change of a turn and every command reply, with the token and the authentication', async () => {
    const hook = await startReceiver();
    const taskId = await newTask(harness.url, ALICE);
    await createConfig(
      harness.url,
      taskId,
      {
        url: `${hook.url}/a2a?task=${taskId}`,
        token: 'client-token-1',
        authentication: { scheme: 'Bearer', credentials: 'webhook-secret' },
      },
      ALICE,
    );
    const sent = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('Hello there', { taskId }) },
      as(ALICE),
    );
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    await waitFor(
      async () => (statesOf(hook, taskId).length >= 2 ? true : undefined),
      'the turn to be pushed',
    );
    await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/title Pushed title', { taskId }) },
      as(ALICE),
    );
    await waitFor(
      async () => (statesOf(hook, taskId).length >= 3 ? true : undefined),
      'the reply to be pushed',
    );
    await sleep(200);

    const updates = updatesOf(hook, taskId);
    expect(updates.map((u) => u.status.state)).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
      'TASK_STATE_INPUT_REQUIRED',
    ]);
    expect(updates[1].status.message.parts[0].text).toContain('You said: Hello there');
    expect(updates[2].metadata).toEqual({ command: 'title' });
    expect(updates[2].status.message.metadata).toEqual({ command: 'title' });
    for (const request of hook.received) {
      expect(request.path).toBe(`/a2a?task=${taskId}`);
      expect(request.headers['x-a2a-notification-token']).toBe('client-token-1');
      expect(request.headers.authorization).toBe('Bearer webhook-secret');
      expect(request.headers['content-type']).toBe('application/a2a+json');
    }
  });

  it("a /spawn sub-task's completion reaches the sub-task's webhook once, and the parent's gets the reply with task_ref", async () => {
    const hook = await startReceiver();
    const parent = await newTask(harness.url, ALICE);
    await createConfig(harness.url, parent, { url: `${hook.url}/parent` }, ALICE);
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const spawned = await rpc(
      harness.url,
      'SendMessage',
      { message: userText(`/spawn ${words}`, { taskId: parent }) },
      as(ALICE),
    );
    const subtask = spawned.body.result.task.status.message.metadata.task_ref as string;
    await createConfig(harness.url, subtask, { url: `${hook.url}/sub` }, ALICE);
    const ended = (u: any) =>
      u.status.state !== 'TASK_STATE_WORKING' && u.status.state !== 'TASK_STATE_SUBMITTED';
    await waitFor(
      async () => (updatesOf(hook, subtask).some(ended) ? true : undefined),
      'the sub-task to end',
    );
    await sleep(200);
    expect(updatesOf(hook, subtask).filter(ended)).toHaveLength(1);
    const final = updatesOf(hook, subtask).find(ended);
    expect(final.status.message.parts[0].text).toContain('w59');
    const reply = updatesOf(hook, parent);
    expect(reply).toHaveLength(1);
    expect(reply[0].metadata).toEqual({ command: 'spawn', task_ref: subtask });
  });

  it('takes a config sent inside SendMessage: a new task sends its whole first turn, and a command that starts a task keeps it', async () => {
    const hook = await startReceiver();
    const sent = await rpc(
      harness.url,
      'SendMessage',
      {
        message: userText('first words'),
        configuration: {
          taskPushNotificationConfig: { url: `${hook.url}/inline`, token: 'inline-token' },
        },
      },
      as(ALICE),
    );
    const taskId = sent.body.result.task.id as string;
    await waitFor(async () => (statesOf(hook, taskId).length >= 2 ? true : undefined), 'the turn');
    expect(statesOf(hook, taskId)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED']);
    expect(hook.received[0]!.headers['x-a2a-notification-token']).toBe('inline-token');

    const streamed = await rpcStream(
      harness.url,
      'SendStreamingMessage',
      {
        message: userText('streamed words'),
        configuration: { taskPushNotificationConfig: { url: `${hook.url}/streamed` } },
      },
      as(ALICE),
    );
    const events = await streamed.events.rest();
    const streamedTask = resultOf(events[0]).task.id as string;
    await waitFor(
      async () => (statesOf(hook, streamedTask).length >= 2 ? true : undefined),
      'the streamed turn',
    );
    expect(statesOf(hook, streamedTask)).toEqual([
      'TASK_STATE_WORKING',
      'TASK_STATE_INPUT_REQUIRED',
    ]);

    const command = await rpc(
      harness.url,
      'SendMessage',
      {
        message: userText('/title started by a command'),
        configuration: { taskPushNotificationConfig: { id: 'cmd', url: `${hook.url}/cmd` } },
      },
      as(ALICE),
    );
    const commandTask = command.body.result.task.id as string;
    const listed = await rpc(
      harness.url,
      'ListTaskPushNotificationConfigs',
      { taskId: commandTask },
      as(ALICE),
    );
    expect(listed.body.result.configs.map((c: { id: string }) => c.id)).toEqual(['cmd']);

    const refused = await rpc(
      harness.url,
      'SendMessage',
      {
        message: userText('never runs'),
        configuration: { taskPushNotificationConfig: { url: 'ftp://example.com/' } },
      },
      as(ALICE),
    );
    expect(refused.body.error?.message).toContain('must be http or https');
  });

  it('sends the cancel of a task', async () => {
    const hook = await startReceiver();
    const taskId = await newTask(harness.url, ALICE);
    await createConfig(harness.url, taskId, { url: `${hook.url}/cancel` }, ALICE);
    await rpc(harness.url, 'CancelTask', { id: taskId }, as(ALICE));
    await waitFor(async () => (hook.received.length > 0 ? true : undefined), 'the cancel');
    await sleep(200);
    expect(statesOf(hook, taskId)).toEqual(['TASK_STATE_CANCELED']);
  });

  it('retries a receiver that fails twice, and the event arrives on the third try', async () => {
    const hook = await startReceiver();
    hook.plan.push(503, 500);
    const taskId = await newTask(harness.url, ALICE);
    await createConfig(harness.url, taskId, { url: `${hook.url}/flaky` }, ALICE);
    await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/title after two failures', { taskId }) },
      as(ALICE),
    );
    await waitFor(async () => (hook.received.length >= 3 ? true : undefined), 'three tries');
    await sleep(200);
    expect(hook.received).toHaveLength(3);
    const bodies = hook.received.map((r) => JSON.stringify(r.body));
    expect(new Set(bodies).size).toBe(1);
    expect(hook.received[2]!.body.statusUpdate.metadata).toEqual({ command: 'title' });
  });

  it(`gives up after push.maxAttempts (${MAX_ATTEMPTS}) tries of a receiver that keeps failing`, async () => {
    const hook = await startReceiver((response) => response.writeHead(503).end());
    const taskId = await newTask(harness.url, ALICE);
    await createConfig(harness.url, taskId, { url: `${hook.url}/down` }, ALICE);
    await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/title nobody home', { taskId }) },
      as(ALICE),
    );
    await waitFor(
      async () => (hook.received.length >= MAX_ATTEMPTS ? true : undefined),
      'every try',
    );
    // The waits double from 20 ms up to 80 ms: far less than this.
    await sleep(600);
    expect(hook.received).toHaveLength(MAX_ATTEMPTS);
  });

  it('keeps the configs across a restart', async () => {
    const taskId = await newTask(harness.url, ALICE);
    await createConfig(harness.url, taskId, { id: 'durable', url: 'http://127.0.0.1:9/d' }, ALICE);
    await harness.stop();
    harness = await startHarness({
      config: push(),
      databaseUrl,
      dataDir: harness.dataDir,
      apiKeys: keys(),
    });
    const listed = await rpc(harness.url, 'ListTaskPushNotificationConfigs', { taskId }, as(ALICE));
    expect(listed.body.result.configs.map((c: { id: string }) => c.id)).toEqual(['durable']);
  });
});

describe('webhook addresses (SSRF)', () => {
  let strict: TestHarness;
  let open: TestHarness;
  beforeAll(async () => {
    strict = await startHarness({ config: push({ allowPrivateNetworks: false }) });
    open = await startHarness({ config: push() });
  });
  afterAll(async () => {
    await strict.stop();
    await open.stop();
  });

  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1 is in a loopback range'],
    ['http://[::1]:8080/hook', '[::1] is in a loopback range'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://10.0.0.1/hook', 'private'],
    ['http://192.168.1.20/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://localhost:8080/hook', 'localhost ('],
  ])('refuses %s when the config is made, with a clear error', async (url, why) => {
    const taskId = await newTask(strict.url);
    const answer = await createConfig(strict.url, taskId, { url });
    expect(answer.body.error?.code).toBe(-32602);
    expect(answer.body.error?.message).toContain(why);
    const listed = await rpc(strict.url, 'ListTaskPushNotificationConfigs', { taskId });
    // An empty list is left out of the JSON, as protobuf's JSON leaves out empty fields.
    expect(listed.body.result.configs ?? []).toEqual([]);
  });

  it('refuses over HTTP+JSON with 400, and bad configs with a clear error', async () => {
    const taskId = await newTask(strict.url);
    const refused = await rest(strict.url, `/tasks/${taskId}/pushNotificationConfigs`, {
      url: 'http://127.0.0.1:1/',
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('loopback');
    const notHttp = await createConfig(strict.url, taskId, { url: 'file:///etc/passwd' });
    expect(notHttp.body.error?.message).toContain('must be http or https');
    const badToken = await createConfig(open.url, await newTask(open.url), {
      url: 'http://127.0.0.1:9/',
      token: 'a\r\nX-Injected: 1',
    });
    expect(badToken.body.error?.code).toBe(-32602);
    expect(badToken.body.error?.message).toContain('token');
  });

  it('never follows a redirect: the receiver that redirects gets one try, the loopback target nothing', async () => {
    const target = await startReceiver();
    const redirecting = await startReceiver((response) =>
      response.writeHead(302, { location: `${target.url}/internal` }).end(),
    );
    const taskId = await newTask(open.url);
    await createConfig(open.url, taskId, { url: `${redirecting.url}/hook` });
    await rpc(open.url, 'SendMessage', { message: userText('/title redirected', { taskId }) });
    await waitFor(async () => (redirecting.received.length > 0 ? true : undefined), 'the POST');
    await sleep(300);
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });
});

describe('A2A 0.3 clients', () => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({ config: push() });
  });
  afterAll(() => harness.stop());

  /** A 0.3 JSON-RPC call: no A2A-Version header, 0.3 method names and shapes. */
  async function call03(method: string, params: unknown): Promise<any> {
    const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return response.json();
  }

  it('set, get, list and delete with 0.3 names; the webhook gets 0.3-shaped events', async () => {
    const hook = await startReceiver();
    const taskId = await newTask(harness.url);
    const set = await call03('tasks/pushNotificationConfig/set', {
      taskId,
      pushNotificationConfig: { id: 'old-client', url: `${hook.url}/v03`, token: 'tok-03' },
    });
    expect(set.result).toMatchObject({
      taskId,
      pushNotificationConfig: { id: 'old-client', url: `${hook.url}/v03`, token: 'tok-03' },
    });
    const got = await call03('tasks/pushNotificationConfig/get', {
      id: taskId,
      pushNotificationConfigId: 'old-client',
    });
    expect(got.result.pushNotificationConfig.id).toBe('old-client');
    const listed = await call03('tasks/pushNotificationConfig/list', { id: taskId });
    expect(listed.result).toHaveLength(1);

    await rpc(harness.url, 'SendMessage', { message: userText('/title from 0.3', { taskId }) });
    await waitFor(async () => (hook.received.length > 0 ? true : undefined), 'the reply');
    const event = hook.received[0]!;
    expect(event.headers['x-a2a-notification-token']).toBe('tok-03');
    expect(event.body).toMatchObject({
      kind: 'status-update',
      taskId,
      status: { state: 'input-required' },
      metadata: { command: 'title' },
    });

    const deleted = await call03('tasks/pushNotificationConfig/delete', {
      id: taskId,
      pushNotificationConfigId: 'old-client',
    });
    expect(deleted.error).toBeUndefined();
    expect((await call03('tasks/pushNotificationConfig/list', { id: taskId })).result).toEqual([]);
  });
});

describe('push off (the default)', () => {
  let plain: TestHarness;
  beforeAll(async () => {
    plain = await startHarness();
  });
  afterAll(() => plain.stop());

  it('the card says pushNotifications: false, and the config calls are refused as not supported', async () => {
    const card = await (await fetch(`${plain.url}/.well-known/agent-card.json`)).json();
    expect(card.capabilities.pushNotifications).toBe(false);
    const taskId = await newTask(plain.url);
    const answer = await createConfig(plain.url, taskId, { url: 'https://hooks.example.com/' });
    expect(answer.body.error?.code).toBe(-32003);
  });
});

describe('two instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let instances: TestHarness[] = [];
  beforeAll(async () => {
    database = await freshPostgresDatabase('a2a_push');
    for (let i = 0; i < 2; i++)
      instances.push(await startHarness({ config: push(), databaseUrl: database.url }));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    instances = [];
    await database?.drop();
  });

  it('send each event exactly once, whichever instance wrote it', async () => {
    const [a, b] = instances as [TestHarness, TestHarness];
    const hook = await startReceiver();
    const taskId = await newTask(a.url);
    // Made on one instance, read by the other.
    await createConfig(b.url, taskId, { url: `${hook.url}/cluster`, token: 'cluster-token' });
    for (const [i, instance] of [a, b, a, b].entries()) {
      await rpc(instance.url, 'SendMessage', {
        message: userText(`message ${i}`, { taskId }),
      });
      await rpc(instance.url === a.url ? b.url : a.url, 'SendMessage', {
        message: userText(`/title title ${i}`, { taskId }),
      });
    }
    // Four turns (working, then idle) and four replies.
    await waitFor(
      async () => (statesOf(hook, taskId).length >= 12 ? true : undefined),
      'every event',
    );
    await sleep(500);
    const updates = updatesOf(hook, taskId);
    expect(updates).toHaveLength(12);
    const replies = updates.filter((u) => u.metadata?.command === 'title');
    expect(replies.map((u) => u.status.message.parts[0].text)).toHaveLength(4);
    const answers = updates.filter(
      (u) => !u.metadata?.command && u.status.state === 'TASK_STATE_INPUT_REQUIRED',
    );
    expect(new Set(answers.map((u) => u.status.message.messageId)).size).toBe(4);
    expect(updates.filter((u) => u.status.state === 'TASK_STATE_WORKING')).toHaveLength(4);
    expect(
      hook.received.every((r) => r.headers['x-a2a-notification-token'] === 'cluster-token'),
    ).toBe(true);
  });

  it('send a cancel once, though it is asked of both instances while a turn runs', async () => {
    const [a, b] = instances as [TestHarness, TestHarness];
    const hook = await startReceiver();
    const taskId = await newTask(a.url);
    await createConfig(a.url, taskId, { url: `${hook.url}/cancel` });
    const long = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    for (const instance of [a, b]) {
      await rpc(instance.url, 'SendMessage', {
        message: userText(long, { taskId }),
        configuration: { returnImmediately: true },
      });
    }
    await waitFor(
      async () => (statesOf(hook, taskId).includes('TASK_STATE_WORKING') ? true : undefined),
      'the turn to start',
    );
    await rpc(b.url, 'CancelTask', { id: taskId });
    await rpc(a.url, 'CancelTask', { id: taskId });
    await waitFor(
      async () => (statesOf(hook, taskId).includes('TASK_STATE_CANCELED') ? true : undefined),
      'the cancel',
    );
    await sleep(800);
    expect(statesOf(hook, taskId)).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_CANCELED']);
  });
});
