/**
 * Input checks, over real HTTP on loopback: every part kind
 * has a defined path to the model or a clear refusal, malformed messages are
 * refused before anything is stored, and no key can be named `unknown`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, ApiKeysError, loadApiKeys } from '../src/serve/api-keys.js';
import { startFakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rest, rpc, userText, waitFor } from 'a2a-testing/http';

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let harness: TestHarness;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test'], apiKey: 'sk-test' });
  harness = await startHarness({
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
    config: { defaultModel: 'openai/gpt-test' },
  });
});
afterAll(async () => {
  await harness.stop();
  await fake.close();
});

async function storedTaskCount(): Promise<number> {
  const listed = await rpc(harness.url, 'ListTasks', {});
  return listed.body.result.totalSize;
}

async function finishedTask(taskId: string): Promise<any> {
  return waitFor(async () => {
    const task = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
    return task.status.state === 'TASK_STATE_WORKING' ||
      task.status.state === 'TASK_STATE_SUBMITTED'
      ? undefined
      : task;
  }, 'the turn to end');
}

describe('item 5: each part kind has a defined path to the model', () => {
  it('a message with only a data part reaches the model as JSON text', async () => {
    const data = { order: 42, items: ['tea', 'milk'] };
    const sent = await rpc(harness.url, 'SendMessage', {
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ data }] },
    });
    expect(sent.body.error).toBeUndefined();
    const task = await finishedTask(sent.body.result.task.id);
    const answer = task.status.message.parts.map((p: any) => p.text ?? '').join('');
    expect(answer).not.toMatch(/messages must not be empty/);
    const lastCall = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
    const userContent = JSON.stringify(lastCall?.body.messages.at(-1));
    expect(userContent).toContain(JSON.stringify(JSON.stringify(data)).slice(1, -1));
  });

  it('text and data parts together reach the model, in order', async () => {
    const sent = await rpc(harness.url, 'SendMessage', {
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'Summarise:' }, { data: { n: 1 } }],
      },
    });
    await finishedTask(sent.body.result.task.id);
    const lastCall = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
    expect(lastCall?.body.messages.at(-1).content).toBe('Summarise:\n{"n":1}');
  });

  it('file parts are refused before anything is stored (-32005 / 415)', async () => {
    const before = await storedTaskCount();
    const byUrl = await rpc(harness.url, 'SendMessage', {
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ text: 'look' }, { url: 'https://example.com/a.png', mediaType: 'image/png' }],
      },
    });
    expect(byUrl.body.error?.code).toBe(-32005);
    expect(byUrl.body.error?.message).toMatch(/file parts/);
    const raw = await rest(harness.url, '/message:send', {
      message: {
        messageId: crypto.randomUUID(),
        role: 'ROLE_USER',
        parts: [{ raw: Buffer.from('hello').toString('base64'), filename: 'a.txt' }],
      },
    });
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.body.error.details[0].reason).toBe('CONTENT_TYPE_NOT_SUPPORTED');
    expect(await storedTaskCount()).toBe(before);
  });

  it('a message whose only text is blank is refused before anything is stored', async () => {
    const before = await storedTaskCount();
    const blank = await rpc(harness.url, 'SendMessage', {
      message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: '  ' }] },
    });
    expect(blank.body.error?.code).toBe(-32602);
    expect(blank.body.error?.message).toMatch(/no content/);
    expect(await storedTaskCount()).toBe(before);
  });
});

describe('item 18: malformed messages are refused before anything is stored', () => {
  const base = () => ({
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text: 'hi' }],
  });
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['parts [1,2]', { ...base(), parts: [1, 2] }, /parts\[0\]/],
    ['parts [{}]', { ...base(), parts: [{}] }, /exactly one of/],
    ['a text that is an object', { ...base(), parts: [{ text: {} }] }, /text must be a string/],
    ['a text that is a number', { ...base(), parts: [{ text: 5 }] }, /text must be a string/],
    ['message id 5', { ...base(), messageId: 5 }, /messageId must be a string/],
    ['message id {}', { ...base(), messageId: {} }, /messageId must be a string/],
    [
      'a command sent as the agent',
      { ...base(), role: 'ROLE_AGENT', parts: [{ text: '/help' }] },
      /ROLE_USER/,
    ],
    [
      'a 500 KB contextId',
      { ...base(), contextId: 'c'.repeat(500_000) },
      /^message\.contextId is too long: an id can be at most 256 characters\.$/,
    ],
    [
      'a 300-character message id',
      { ...base(), messageId: 'm'.repeat(300) },
      /^message\.messageId is too long: an id can be at most 256 characters\.$/,
    ],
  ];

  it.each(cases)('%s, on JSON-RPC', async (_name, message, reason) => {
    const before = await storedTaskCount();
    const sent = await rpc(harness.url, 'SendMessage', { message });
    expect(sent.body.error?.code).toBe(-32602);
    expect(sent.body.error?.message).toMatch(reason);
    expect(await storedTaskCount()).toBe(before);
  });

  it.each(cases)('%s, on HTTP+JSON', async (_name, message, reason) => {
    const before = await storedTaskCount();
    const sent = await rest(harness.url, '/message:send', { message });
    expect(sent.status).toBe(400);
    expect(sent.body.error.message).toMatch(reason);
    expect(await storedTaskCount()).toBe(before);
  });

  it('the server goes on serving', async () => {
    const sent = await rpc(harness.url, 'SendMessage', { message: userText('/help') });
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});

describe("item 15: no key can read the anonymous owner's tasks", () => {
  it('a key named "unknown" (in any case) is refused at start', () => {
    for (const principal of ['unknown', 'Unknown', 'UNKNOWN']) {
      expect(() => new ApiKeys([{ principal, key: 'x'.repeat(32), source: 'test' }])).toThrow(
        /reserved/,
      );
    }
    expect(() => loadApiKeys({ env: `unknown=${'y'.repeat(32)}` })).toThrow(ApiKeysError);
  });
});
