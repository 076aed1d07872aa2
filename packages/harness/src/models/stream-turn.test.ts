import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { APICallError, RetryError } from 'ai';
import type { ModelMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from 'a2a-testing/fake-openai';
import type { FakeOpenAI } from 'a2a-testing/fake-openai';
import { createModelCatalog } from './catalog.js';
import { toModelError } from './call-errors.js';
import { ModelError, redactSecrets } from './errors.js';
import { createOfflineModel } from './offline.js';
import { streamModelTurn } from './stream-turn.js';

const KEY = 'sk-test-stream-turn-abcdef0123';

async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const messages: ModelMessage[] = [
  { role: 'user', content: 'first question' },
  { role: 'assistant', content: 'first answer' },
  { role: 'user', content: 'second question' },
];

let fake: FakeOpenAI;
beforeEach(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test'], apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

async function openaiModel(env: NodeJS.ProcessEnv, id = 'openai/gpt-test') {
  const catalog = await createModelCatalog({ env });
  return catalog.languageModel(id);
}

describe('streamModelTurn over the fake OpenAI server', () => {
  it('streams deltas, returns text and usage, and posts to /v1/chat/completions', async () => {
    const model = await openaiModel({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl });
    const deltas: string[] = [];
    const result = await streamModelTurn({
      model,
      modelId: 'openai/gpt-test',
      system: 'You are terse.',
      messages,
      onDelta: (d) => deltas.push(d),
    });
    expect(result.text).toBe('fake reply from gpt-test to "second question"');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(result.text);
    // prompt: "You are terse." (3) + 2 + 2 + 2 words; reply: 7 words
    expect(result.usage).toEqual({ inputTokens: 9, outputTokens: 7 });

    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.path)).toEqual(['/v1/chat/completions']);
    expect(fake.requests.some((r) => r.path.endsWith('/responses'))).toBe(false);
    const body = posts[0]?.body;
    expect(body).toMatchObject({ model: 'gpt-test', stream: true });
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question' },
    ]);
    expect(posts[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('turns a 401 into a ModelError naming the status, without the key', async () => {
    const model = await openaiModel({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl });
    fake.failNext(1, 401, `Incorrect API key provided: ${KEY}.`);
    const error = await streamModelTurn({
      model,
      modelId: 'openai/gpt-test',
      messages,
      onDelta: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    const message = (error as ModelError).message;
    expect(message).toMatch(/^model openai\/gpt-test: 401 unauthorized/);
    expect(message).not.toContain(KEY);
    expect(message).not.toContain('\n');
    expect((error as ModelError).statusCode).toBe(401);
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('reports a wrong key sent by the client as 401', async () => {
    const model = await openaiModel(
      { OPENAI_API_KEY: 'sk-wrong-key-000000', OPENAI_BASE_URL: fake.baseUrl },
      'openai/anything',
    );
    await expect(
      streamModelTurn({ model, modelId: 'openai/anything', messages, onDelta: () => {} }),
    ).rejects.toThrow(/^model openai\/anything: 401 unauthorized \(Incorrect API key provided/);
  });

  it('does not retry by default, and retries when asked', async () => {
    const model = await openaiModel({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl });
    fake.failNext(1, 500, 'boom');
    await expect(
      streamModelTurn({ model, modelId: 'openai/gpt-test', messages, onDelta: () => {} }),
    ).rejects.toThrow('model openai/gpt-test: 500 internal server error (boom)');
    expect(fake.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('fails readably after one attempt when the server is unreachable', async () => {
    const port = await deadPort();
    const base = `http://127.0.0.1:${port}/v1`;
    const attempts: string[] = [];
    const catalog = await createModelCatalog({
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: base },
      fetch: (input, init) => {
        attempts.push(String(input instanceof Request ? input.url : input));
        return globalThis.fetch(input, init);
      },
    });
    const model = await catalog.languageModel('openai/x');
    const error = await streamModelTurn({
      model,
      modelId: 'openai/x',
      messages,
      onDelta: () => {},
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe(
      `model openai/x: cannot reach ${base} (connection refused)`,
    );
    // No retry, so no backoff before the turn fails.
    expect(attempts.filter((url) => url.endsWith('/chat/completions'))).toHaveLength(1);
  });

  it('rejects with an AbortError (not a ModelError) when aborted mid-stream', async () => {
    const slow = await startFakeOpenAI({ models: ['gpt-test'], chunkDelayMs: 40 });
    try {
      const catalog = await createModelCatalog({
        env: {},
        config: { providers: [{ name: 'slow', baseUrl: slow.baseUrl }] },
      });
      const model = await catalog.languageModel('slow/gpt-test');
      const controller = new AbortController();
      const deltas: string[] = [];
      const error = await streamModelTurn({
        model,
        modelId: 'slow/gpt-test',
        messages,
        signal: controller.signal,
        onDelta: (d) => {
          deltas.push(d);
          controller.abort();
        },
      }).catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(ModelError);
      expect((error as Error).name).toBe('AbortError');
      expect(deltas).toHaveLength(1);
      // A provider without apiKeyEnv sends no Authorization header at all.
      const post = slow.requests.find((r) => r.method === 'POST');
      expect(post?.path).toBe('/v1/chat/completions');
      expect(post?.headers.authorization).toBeUndefined();
    } finally {
      await slow.close();
    }
  });

  it('rejects at once for an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      streamModelTurn({
        model: createOfflineModel(),
        modelId: 'offline/echo',
        messages,
        signal: controller.signal,
        onDelta: () => {},
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('runs the offline model too', async () => {
    const deltas: string[] = [];
    const result = await streamModelTurn({
      model: createOfflineModel(),
      modelId: 'offline/echo',
      system: 'sys',
      messages,
      onDelta: (d) => deltas.push(d),
    });
    expect(result.text).toContain(
      'I got 3 messages and a system prompt. You said: second question',
    );
    expect(result.usage.outputTokens).toBe(deltas.length);
  });
});

describe('toModelError', () => {
  it('unwraps retry errors and keeps only the first line', () => {
    const last = new APICallError({
      message: 'Service Unavailable',
      url: 'https://api.example.com/v1/chat/completions?key=secret-value',
      requestBodyValues: { messages: ['do not show me'] },
      statusCode: 503,
      responseBody: '{"error":{"message":"overloaded\\nsecond line"}}',
    });
    const error = toModelError(
      'openai/x',
      new RetryError({
        message: 'failed after 3 attempts',
        reason: 'maxRetriesExceeded',
        errors: [last],
      }),
    );
    expect(error.message).toBe('model openai/x: 503 service unavailable (overloaded)');
  });

  it('masks keys, bearer tokens and given secrets', () => {
    expect(redactSecrets('key sk-proj-abcdefgh1234 and Bearer abc.def')).toBe(
      'key [redacted] and Bearer [redacted]',
    );
    expect(redactSecrets('token is hunter2-long', ['hunter2-long'])).toBe('token is [redacted]');
    expect(redactSecrets('https://u:p@h.example/v1?api_key=zzz')).toBe(
      'https://[redacted]@h.example/v1?api_key=[redacted]',
    );
  });

  it('describes plain errors without their stack', () => {
    const error = toModelError('offline/echo', new Error('something odd\n    at foo (bar.js:1:1)'));
    expect(error.message).toBe('model offline/echo: something odd');
  });
});
