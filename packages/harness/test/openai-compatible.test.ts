/**
 * The harness against a real OpenAI-compatible HTTP server on loopback, so the
 * real provider client runs: model listing, chosen models, errors, and proof
 * that no command or command reply ever reaches the model.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';

let fake: Awaited<ReturnType<typeof startFakeOpenAI>>;
let harness: TestHarness;

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test', 'gpt-other'], apiKey: 'sk-test-secret' });
  harness = await startHarness({
    env: { OPENAI_API_KEY: 'sk-test-secret', OPENAI_BASE_URL: fake.baseUrl },
  });
});
afterAll(async () => {
  await harness.stop();
  await fake.close();
});

const send = (text: string, taskId?: string) =>
  rpc(harness.url, 'SendMessage', { message: userText(text, taskId ? { taskId } : {}) });
const reply = (response: Awaited<ReturnType<typeof send>>) =>
  response.body.result.task.status.message;

it("/model lists the server's models with their provider, and the current one", async () => {
  const message = reply(await send('/model'));
  const data = message.parts.find((p: any) => 'data' in p).data;
  expect(Object.keys(data).sort()).toEqual(['current', 'models']);
  expect(data.models).toEqual(
    expect.arrayContaining([
      { id: 'openai/gpt-test', provider: 'openai' },
      { id: 'openai/gpt-other', provider: 'openai' },
      { id: 'offline/echo', provider: 'offline' },
    ]),
  );
  // The first configured provider's first model is the default.
  expect(data.current).toBe('openai/gpt-test');
});

it('turns use the chosen model, and no command or command reply ever reaches the server', async () => {
  const first = await send('hello model');
  const taskId = first.body.result.task.id;
  expect(reply(first).parts[0].text).toContain('fake reply from gpt-test');
  await send('/help', taskId);
  const switched = reply(await send('/model openai/gpt-other', taskId));
  expect(switched.parts.find((p: any) => 'data' in p).data.current).toBe('openai/gpt-other');
  await send('/status', taskId);
  const second = await send('and now?', taskId);
  expect(reply(second).parts[0].text).toContain('fake reply from gpt-other');

  const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
  expect(chats.some((r) => r.path.endsWith('/responses'))).toBe(false);
  const last = chats.at(-1)!;
  expect(last.body.model).toBe('gpt-other');
  const sentTexts = chats.flatMap((r) =>
    (r.body.messages as any[]).map((m) => JSON.stringify(m.content)),
  );
  for (const text of sentTexts) {
    expect(text).not.toMatch(/\/help|\/model|\/status|Model set to|offline\/echo/);
  }
  // hello model, its answer, and now?: three messages.
  expect((last.body.messages as any[]).filter((m) => m.role !== 'system')).toHaveLength(3);
});

it('an unknown model is explained with close matches, and nothing changes', async () => {
  const task = (await send('hi')).body.result.task;
  const message = reply(await send('/model openai/gpt-tset', task.id));
  expect(message.parts[0].text).toContain('openai/gpt-tset');
  expect(message.parts[0].text).toContain('openai/gpt-test');
  const data = reply(await send('/model', task.id)).parts.find((p: any) => 'data' in p).data;
  expect(data.current).toBe('openai/gpt-test');
});

it('a model error ends the turn in input-required with a readable message; the task is not stuck', async () => {
  const task = (await send('hi')).body.result.task;
  fake.failNext(1, 401, 'Incorrect API key provided: sk-test-secret');
  const failed = (await send('this will fail', task.id)).body.result.task;
  expect(failed.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  const text: string = failed.status.message.parts[0].text;
  expect(text).toMatch(/model openai\/gpt-test: 401/);
  expect(text).not.toContain('sk-test-secret');
  // The user switches model and retries.
  await send('/model offline/echo', task.id);
  const retried = (await send('this will work', task.id)).body.result.task;
  expect(retried.status.message.parts[0].text).toContain('offline model');
  // The error note is for the user, not the model: hi, answer, this will fail, this will work.
  expect(retried.status.message.parts[0].text).toContain('I got 4 messages');
});
