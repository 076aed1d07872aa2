/**
 * The input limits of docs/configuration.md#limits, over real HTTP on loopback:
 * just under each limit is accepted, just over is refused with a protocol
 * error on JSON-RPC and HTTP+JSON (and the streaming send), nothing is stored
 * on a refusal, and the server goes on serving.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/config/limits.js';
import { headers, rpc, userText, waitFor } from 'a2a-testing/http';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

type Transport = 'JSON-RPC' | 'HTTP+JSON';
type Send = 'send' | 'stream';

interface Outcome {
  status: number;
  /** The JSON-RPC error, or the HTTP+JSON error body's `error`. */
  error?: { code: number; message: string; status?: string };
  /** The SSE events of a stream that was accepted. */
  events?: unknown[];
  result?: any;
}

let nextId = 1;

/** A SendMessage or SendStreamingMessage on either transport, read to its end. */
async function sendOn(
  baseUrl: string,
  transport: Transport,
  send: Send,
  params: Record<string, unknown>,
): Promise<Outcome> {
  const url =
    transport === 'JSON-RPC'
      ? `${baseUrl}/a2a/jsonrpc`
      : `${baseUrl}/a2a/rest/message:${send === 'send' ? 'send' : 'stream'}`;
  const method = send === 'send' ? 'SendMessage' : 'SendStreamingMessage';
  const body = transport === 'JSON-RPC' ? { jsonrpc: '2.0', id: nextId++, method, params } : params;
  const response = await fetch(url, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const events = text
      .split('\n\n')
      .map((block) => block.replace(/^data: ?/m, '').trim())
      .filter((data) => data !== '')
      .map((data) => JSON.parse(data));
    return { status: response.status, events };
  }
  const json = JSON.parse(text);
  return { status: response.status, error: json.error, result: json.result ?? json };
}

const transports: Transport[] = ['JSON-RPC', 'HTTP+JSON'];
const sends: Send[] = ['send', 'stream'];
const cases = transports.flatMap((transport) => sends.map((send) => [transport, send] as const));

/** The refusal each transport gives for RequestMalformedError. */
function expectMalformed(outcome: Outcome, transport: Transport, message: RegExp): void {
  expect(outcome.events).toBeUndefined();
  if (transport === 'JSON-RPC') {
    expect(outcome.status).toBe(200);
    expect(outcome.error?.code).toBe(-32602);
  } else {
    expect(outcome.status).toBe(400);
    expect(outcome.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  }
  expect(outcome.error?.message).toMatch(message);
}

function expectAccepted(outcome: Outcome): void {
  expect(outcome.error).toBeUndefined();
  expect(outcome.status).toBe(200);
  if (outcome.events) expect(outcome.events.length).toBeGreaterThan(0);
}

function wireMessage(parts: unknown[], taskId?: string) {
  return {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts,
    ...(taskId ? { taskId } : {}),
  };
}

async function historyOf(baseUrl: string, taskId: string): Promise<any[]> {
  const { body } = await rpc(baseUrl, 'GetTask', { id: taskId });
  if (body.error) throw new Error(body.error.message);
  return body.result.history ?? [];
}

const userMessageIds = (history: any[]) =>
  history.filter((m) => m.role === 'ROLE_USER').map((m) => m.messageId);

/** Every task id the server lists, page by page. */
async function allTaskIds(baseUrl: string): Promise<string[]> {
  const ids: string[] = [];
  let pageToken = '';
  do {
    const { body } = await rpc(baseUrl, 'ListTasks', { pageSize: 100, pageToken });
    ids.push(...body.result.tasks.map((t: any) => t.id));
    pageToken = body.result.nextPageToken ?? '';
  } while (pageToken);
  return ids;
}

/** A new task, made by a command so that no model turn runs. */
async function newTask(baseUrl: string): Promise<string> {
  const { body } = await rpc(baseUrl, 'SendMessage', { message: userText('/help') });
  return body.result.task.id;
}

/** Waits until the task is idle again, so that the next message starts a turn of its own. */
async function idle(baseUrl: string, taskId: string): Promise<void> {
  await waitFor(async () => {
    const { body } = await rpc(baseUrl, 'GetTask', { id: taskId, historyLength: 0 });
    return body.result.status.state === 'TASK_STATE_INPUT_REQUIRED' ? true : undefined;
  }, `task ${taskId} to be idle`);
}

/** The server still answers a command and an ordinary message after refusals. */
async function expectStillServing(baseUrl: string): Promise<void> {
  const help = await rpc(baseUrl, 'SendMessage', { message: userText('/help') });
  expect(help.body.result.task.status.message.metadata).toEqual({ command: 'help' });
  const hello = await rpc(baseUrl, 'SendMessage', { message: userText('hello after refusals') });
  // The fake model's answer names the message it answers.
  expect(hello.body.result.task.status.message.parts[0].text).toContain('"hello after refusals"');
}

/**
 * For each transport and send: `under` is accepted, `over` is refused as
 * RequestMalformedError with `message`, on an existing task whose history the
 * refusal leaves as it was.
 */
async function expectLimit(
  baseUrl: string,
  under: (taskId: string) => unknown,
  over: (taskId: string) => unknown,
  message: RegExp,
): Promise<void> {
  const taskId = await newTask(baseUrl);
  for (const [transport, send] of cases) {
    await idle(baseUrl, taskId);
    const before = userMessageIds(await historyOf(baseUrl, taskId));
    const refused = await sendOn(baseUrl, transport, send, { message: over(taskId) });
    expectMalformed(refused, transport, message);
    expect(userMessageIds(await historyOf(baseUrl, taskId))).toEqual(before);

    const accepted = await sendOn(baseUrl, transport, send, { message: under(taskId) });
    expectAccepted(accepted);
    expect(userMessageIds(await historyOf(baseUrl, taskId))).toHaveLength(before.length + 1);
  }
  // A refused message without a task id makes no task.
  const tasks = await allTaskIds(baseUrl);
  for (const [transport, send] of cases) {
    expectMalformed(
      await sendOn(baseUrl, transport, send, { message: over('') }),
      transport,
      message,
    );
  }
  expect(await allTaskIds(baseUrl)).toEqual(tasks);
}

function commandFiles(sizes: Record<string, number>): string {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-limits-'));
  mkdirSync(path.join(dataDir, 'commands'));
  for (const [name, size] of Object.entries(sizes)) {
    const head = '---\ndescription: padded\n---\n';
    writeFileSync(
      path.join(dataDir, 'commands', `${name}.md`),
      head + 'x'.repeat(size - head.length),
    );
  }
  return dataDir;
}

async function cardCommands(baseUrl: string): Promise<string[]> {
  const card = await (await fetch(`${baseUrl}/.well-known/agent-card.json`)).json();
  return card.capabilities.extensions.flatMap((e: any) =>
    (e.params?.commands ?? []).map((c: any) => c.name),
  );
}

async function postRaw(
  url: string,
  body: string,
): Promise<{ status: number; contentType: string | null; json: any }> {
  const response = await fetch(url, { method: 'POST', headers: headers(), body });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    json: await response.json(),
  };
}

/** A SendMessage request whose body is `bytes` long, padded inside the message's metadata. */
function paddedBody(bytes: number, wrap: (params: unknown) => unknown): string {
  const params = (padding: string) => ({
    message: { ...userText('/help'), metadata: { padding } },
  });
  const empty = JSON.stringify(wrap(params(''))).length;
  const body = JSON.stringify(wrap(params('x'.repeat(bytes - empty))));
  expect(body.length).toBe(bytes);
  return body;
}

/**
 * The model is the fake OpenAI server: it answers at once, and a turn that
 * must still be running while messages queue behind it streams until the test
 * lets it finish, however slow the machine.
 */
let model: FakeOpenAI;
const ON_THE_FAKE_MODEL = {
  env: { OPENAI_API_KEY: 'sk-test' },
  defaultModel: 'openai/gpt-test',
} as const;
beforeAll(async () => {
  model = await startFakeOpenAI({ models: ['gpt-test'] });
});
afterAll(() => model?.close());

/** A new task whose turns stream until `release` is called. */
async function heldTask(baseUrl: string): Promise<{ taskId: string; release: () => void }> {
  const taskId = await newTask(baseUrl);
  let release!: () => void;
  model.streamUntil(new Promise<void>((resolve) => (release = resolve)));
  return { taskId, release };
}

const asJsonRpc = (params: unknown) => ({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params });
const asRest = (params: unknown) => params;

describe('the default limits', () => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({
      env: { ...ON_THE_FAKE_MODEL.env, OPENAI_BASE_URL: model.baseUrl },
      config: { defaultModel: ON_THE_FAKE_MODEL.defaultModel },
      dataDir: commandFiles({ 'at-limit': 64 * 1024, 'over-limit': 64 * 1024 + 1 }),
    });
  });
  afterAll(() => harness.stop());

  it('are in force when the config sets none', () => {
    expect(harness.harness.limits).toEqual(DEFAULT_LIMITS);
  });

  it('partsPerMessage: 64 parts are accepted, 65 refused', async () => {
    // One-letter texts: the model's reply, which repeats the message, stays short (a message
    // of empty texts only is refused: nothing for the model).
    const parts = (n: number) => Array.from({ length: n }, () => ({ text: 'x' }));
    await expectLimit(
      harness.url,
      (taskId) => wireMessage(parts(64), taskId),
      (taskId) => wireMessage(parts(65), taskId),
      /^The message has 65 parts; a message can have at most 64\.$/,
    );
  });

  it('textChars: 100,000 characters over the text parts are accepted, 100,001 refused; emoji count once', async () => {
    const split = (total: number) => [
      { text: '😀'.repeat(1000) },
      { data: { ignored: 'y'.repeat(5000) } },
      { text: 'x'.repeat(total - 1000) },
    ];
    await expectLimit(
      harness.url,
      (taskId) => wireMessage(split(100_000), taskId),
      (taskId) => wireMessage(split(100_001), taskId),
      /^The message is too long: messages can be at most 100,000 characters\.$/,
    );
  });

  it('argumentChars: a command argument of 10,000 characters runs, 10,001 is refused naming the command', async () => {
    await expectLimit(
      harness.url,
      (taskId) => wireMessage([{ text: `/title ${'t'.repeat(10_000)}` }], taskId),
      (taskId) => wireMessage([{ text: `/title ${'t'.repeat(10_001)}` }], taskId),
      /^The arguments of \/title are 10001 characters long; the limit is 10000 characters\.$/,
    );
  });

  it('queuedPerTask: 16 messages may wait behind a running turn, the 17th is refused', async () => {
    const { taskId, release } = await heldTask(harness.url);
    const queue = (transport: Transport, text = 'wait for me') =>
      sendOn(harness.url, transport, 'send', {
        message: userText(text, { taskId }),
        configuration: { returnImmediately: true },
      });
    expectAccepted(await queue('JSON-RPC', 'a long answer')); // runs while the others queue
    for (let i = 0; i < 16; i++) expectAccepted(await queue(i % 2 ? 'JSON-RPC' : 'HTTP+JSON'));
    const before = userMessageIds(await historyOf(harness.url, taskId));
    expect(before).toHaveLength(17 + 1);

    const overRpc = await queue('JSON-RPC');
    expect(overRpc.error?.code).toBe(-32004);
    const overRest = await queue('HTTP+JSON');
    expect(overRest.status).toBe(400);
    expect(overRest.error?.status).toBe('FAILED_PRECONDITION');
    for (const over of [overRpc, overRest]) {
      expect(over.error?.message).toBe(
        `Task ${taskId} already has 16 messages waiting for the model, as many as a task can hold; wait for the current turn to finish.`,
      );
    }
    expect(userMessageIds(await historyOf(harness.url, taskId))).toEqual(before);
    await rpc(harness.url, 'CancelTask', { id: taskId });
    release();
    await expectStillServing(harness.url);
  });

  it('bodyBytes: a body of 1 MiB is read, one byte more is refused with 413 on both transports', async () => {
    const mib = 1024 * 1024;
    const rpcUrl = `${harness.url}/a2a/jsonrpc`;
    const restUrl = `${harness.url}/a2a/rest/message:send`;

    const rpcAtLimit = await postRaw(rpcUrl, paddedBody(mib, asJsonRpc));
    expect(rpcAtLimit.json.result.task.status.message.metadata).toEqual({ command: 'help' });
    const restAtLimit = await postRaw(restUrl, paddedBody(mib, asRest));
    expect(restAtLimit.json.task.status.message.metadata).toEqual({ command: 'help' });

    const message = 'The request is too large: a request can be at most 1,048,576 bytes.';
    const rpcOver = await postRaw(rpcUrl, paddedBody(mib + 1, asJsonRpc));
    expect(rpcOver.status).toBe(413);
    expect(rpcOver.contentType).toMatch(/^application\/json/);
    expect(rpcOver.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
    const restOver = await postRaw(restUrl, paddedBody(mib + 1, asRest));
    expect(restOver.status).toBe(413);
    expect(restOver.contentType).toMatch(/^application\/a2a\+json/);
    expect(restOver.json).toEqual({
      error: {
        code: 413,
        status: 'INVALID_ARGUMENT',
        message,
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: expect.any(String),
            domain: 'a2a-protocol.org',
          },
        ],
      },
    });
    await expectStillServing(harness.url);
  });

  it('malformed JSON still gets the errors it got before: -32700 on JSON-RPC, 400 on HTTP+JSON', async () => {
    const rpcBad = await postRaw(`${harness.url}/a2a/jsonrpc`, '{"jsonrpc": "2.0", ');
    expect(rpcBad.status).toBe(200);
    expect(rpcBad.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Invalid JSON payload.' },
    });
    const restBad = await postRaw(`${harness.url}/a2a/rest/message:send`, '{"message": ');
    expect(restBad.status).toBe(400);
    expect(restBad.contentType).toMatch(/^application\/a2a\+json/);
    expect(restBad.json.error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'Invalid JSON payload.',
    });
  });

  it('commandFileBytes: a command file of 64 KiB is read, one byte more is skipped', async () => {
    const commands = await cardCommands(harness.url);
    expect(commands).toContain('at-limit');
    expect(commands).not.toContain('over-limit');
  });
});

describe('configured limits', () => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({
      config: {
        defaultModel: ON_THE_FAKE_MODEL.defaultModel,
        limits: {
          bodyBytes: 4 * 1024 * 1024,
          partsPerMessage: 3,
          textChars: 1500,
          argumentChars: 8,
          queuedPerTask: 1,
          commandFileBytes: 200,
        },
      },
      env: { ...ON_THE_FAKE_MODEL.env, OPENAI_BASE_URL: model.baseUrl },
      dataDir: commandFiles({ small: 200, big: 201 }),
    });
  });
  afterAll(() => harness.stop());

  it('partsPerMessage, textChars and argumentChars take the configured values', async () => {
    const texts = (...sizes: number[]) => sizes.map((size) => ({ text: 'a'.repeat(size) }));
    await expectLimit(
      harness.url,
      (taskId) => wireMessage(texts(1, 1, 1), taskId),
      (taskId) => wireMessage(texts(1, 1, 1, 1), taskId),
      /^The message has 4 parts; a message can have at most 3\.$/,
    );
    await expectLimit(
      harness.url,
      (taskId) => wireMessage(texts(700, 800), taskId),
      (taskId) => wireMessage(texts(700, 801), taskId),
      /^The message is too long: messages can be at most 1,500 characters\.$/,
    );
    await expectLimit(
      harness.url,
      (taskId) => wireMessage([{ text: '/title 12345678' }], taskId),
      (taskId) => wireMessage([{ text: '/title 123456789' }], taskId),
      /^The arguments of \/title are 9 characters long; the limit is 8 characters\.$/,
    );
  });

  it('queuedPerTask: one message may wait, the second is refused', async () => {
    const { taskId, release } = await heldTask(harness.url);
    const queue = (text = 'wait') =>
      rpc(harness.url, 'SendMessage', {
        message: userText(text, { taskId }),
        configuration: { returnImmediately: true },
      });
    expect((await queue('a long answer')).body.error).toBeUndefined();
    expect((await queue()).body.error).toBeUndefined();
    expect((await queue()).body.error?.message).toContain('already has 1 messages waiting');
    await rpc(harness.url, 'CancelTask', { id: taskId });
    release();
  });

  it('bodyBytes: a larger limit reads a 2 MB body, and refuses one over it', async () => {
    const url = `${harness.url}/a2a/jsonrpc`;
    const twoMb = await postRaw(url, paddedBody(2_000_000, asJsonRpc));
    expect(twoMb.json.result.task.status.message.metadata).toEqual({ command: 'help' });
    const restTwoMb = await postRaw(
      `${harness.url}/a2a/rest/message:send`,
      paddedBody(2_000_000, asRest),
    );
    expect(restTwoMb.json.task.status.message.metadata).toEqual({ command: 'help' });
    const over = await postRaw(url, paddedBody(4 * 1024 * 1024 + 1, asJsonRpc));
    expect(over.status).toBe(413);
    expect(over.json.error.message).toBe(
      'The request is too large: a request can be at most 4,194,304 bytes.',
    );
    await expectStillServing(harness.url);
  });

  it('commandFileBytes: a file of exactly the limit is read, one byte more is skipped', async () => {
    const commands = await cardCommands(harness.url);
    expect(commands).toContain('small');
    expect(commands).not.toContain('big');
  });
});
