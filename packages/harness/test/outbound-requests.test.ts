/**
 * Server-side requests: the harness calls only the model endpoints in its
 * configuration. Nothing a caller sends — a model id, a URL part, a command
 * argument — can point it at another host or path.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText, waitFor } from 'a2a-testing/http';

let fake: FakeOpenAI;
let harness: TestHarness;
let canary: Server;
let canaryUrl: string;
const canaryHits: string[] = [];

beforeAll(async () => {
  canary = createServer((req, res) => {
    canaryHits.push(`${req.method} ${req.url}`);
    res.end('{}');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;
  fake = await startFakeOpenAI({ models: ['gpt-test'] });
  harness = await startHarness({ env: { OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: fake.baseUrl } });
});
afterAll(async () => {
  await harness.stop();
  await fake.close();
  await new Promise((resolve) => canary.close(resolve));
});

const send = (message: unknown) => rpc(harness.url, 'SendMessage', { message });
const replyOf = (response: Awaited<ReturnType<typeof send>>) =>
  response.body.result.task.status.message;

/** Every request the fake model server saw went to its own API paths. */
function onlyModelApiCalls(): void {
  for (const request of fake.requests) {
    expect(['/v1/models', '/v1/chat/completions']).toContain(request.path);
  }
}

it('a model id that looks like a URL or a path is refused while the server lists its models', async () => {
  for (const id of [
    `openai/${canaryUrl}/steal`,
    'openai/../../admin',
    'openai/gpt-test?x=1#frag',
    `custom/${canaryUrl}`,
  ]) {
    const reply = replyOf(await send(userText(`/model ${id}`)));
    expect(reply.parts[0].text).toMatch(/unknown|no provider|not/i);
  }
  expect(canaryHits).toEqual([]);
  onlyModelApiCalls();
});

it('an id the listing cannot check travels only in the request body, to the configured URL', async () => {
  // A listing that fails at start leaves the catalog accepting any id for the provider.
  fake.failNext(3, 500);
  const unchecked = await startHarness({
    env: { OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: fake.baseUrl },
  });
  try {
    const id = `${canaryUrl}/../v1/models`;
    const chosen = await rpc(unchecked.url, 'SendMessage', {
      message: userText(`/model openai/${id}`),
    });
    expect(replyOf(chosen).parts[0].text).toContain(id);
    const taskId = chosen.body.result.task.id;
    await rpc(unchecked.url, 'SendMessage', { message: userText('hello', { taskId }) });
  } finally {
    await unchecked.stop();
  }
  const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
  expect(chats.some((r) => r.body?.model === `${canaryUrl}/../v1/models`)).toBe(true);
  expect(canaryHits).toEqual([]);
  onlyModelApiCalls();
});

it('URL and file parts in a message are refused, never fetched', async () => {
  const message = {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [
      { text: 'look at these' },
      { url: `${canaryUrl}/image.png`, mediaType: 'image/png' },
      { url: `${canaryUrl}/doc.txt`, filename: 'doc.txt', mediaType: 'text/plain' },
    ],
  };
  const response = await send(message);
  // No model here takes files: the message is refused before anything is stored (-32005).
  expect(response.body.error?.code).toBe(-32005);
  const spawned = await send(userText(`/spawn summarise ${canaryUrl}/secret`));
  const subtask = spawned.body.result.task.status.message.metadata.task_ref as string;
  expect(subtask).toBeDefined();
  // The sub-task's whole turn, not a guess at how long it takes: a canary hit
  // after its end would be no turn's doing.
  await waitFor(
    async () => {
      const { body } = await rpc(harness.url, 'GetTask', { id: subtask });
      const state = body.result?.status?.state;
      return state && !['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'].includes(state)
        ? state
        : undefined;
    },
    'the spawned sub-task to end its turn',
    2000,
  );
  // The URL reached the model as words of the prompt, and nowhere else.
  const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
  expect(chats.some((r) => JSON.stringify(r.body).includes(`${canaryUrl}/secret`))).toBe(true);
  expect(canaryHits).toEqual([]);
  onlyModelApiCalls();
});
