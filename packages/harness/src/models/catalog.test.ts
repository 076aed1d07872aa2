import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from 'a2a-testing/fake-openai';
import type { FakeOpenAI } from 'a2a-testing/fake-openai';
import { createModelCatalog } from './catalog.js';
import type { ModelsConfig } from './catalog.js';
import { ModelConfigError, UnknownModelError } from './errors.js';
import { OfflineLanguageModel } from './offline.js';
import { closeMatches, editDistance } from './suggest.js';

const KEY = 'sk-test-catalog-0123456789';

/** A pino logger that keeps its JSON lines for assertions. */
function captureLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

/** A loopback port nobody listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let fake: FakeOpenAI;
beforeEach(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test', 'gpt-other'], apiKey: KEY });
});
afterEach(async () => {
  await fake.close();
});

function openaiEnv(): NodeJS.ProcessEnv {
  return { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl };
}

describe('createModelCatalog', () => {
  it('has only the offline provider without keys', async () => {
    const catalog = await createModelCatalog({ env: {} });
    expect(catalog.providers()).toEqual(['offline']);
    expect(await catalog.list()).toEqual([{ id: 'offline/echo', provider: 'offline' }]);
    expect(await catalog.defaultModelId()).toBe('offline/echo');
    expect(await catalog.languageModel('offline/echo')).toBeInstanceOf(OfflineLanguageModel);
  });

  it('lists the OpenAI-compatible server models as openai/<id>, with the bearer key', async () => {
    const catalog = await createModelCatalog({ env: openaiEnv() });
    expect(catalog.providers()).toEqual(['offline', 'openai']);
    expect(await catalog.list()).toEqual([
      { id: 'offline/echo', provider: 'offline' },
      { id: 'openai/gpt-test', provider: 'openai' },
      { id: 'openai/gpt-other', provider: 'openai' },
    ]);
    const listing = fake.requests.filter((r) => r.path === '/v1/models');
    expect(listing).toHaveLength(1);
    expect(listing[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(await catalog.defaultModelId()).toBe('openai/gpt-test');
  });

  it('caches the listing and refreshes it on request or when stale', async () => {
    const catalog = await createModelCatalog({ env: openaiEnv(), cacheMs: 60_000 });
    fake.setModels(['gpt-new']);
    const cached = await catalog.list();
    expect(cached.map((m) => m.id)).toContain('openai/gpt-test');
    expect(fake.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);

    const refreshed = await catalog.list({ refresh: true });
    expect(refreshed.map((m) => m.id)).toEqual(['offline/echo', 'openai/gpt-new']);

    const quick = await createModelCatalog({ env: openaiEnv(), cacheMs: 0 });
    fake.setModels(['gpt-newer']);
    expect((await quick.list()).map((m) => m.id)).toEqual(['offline/echo', 'openai/gpt-newer']);
  });

  it('keeps the last known list when a refresh fails, warns without the key, never throws', async () => {
    const { logger, lines } = captureLogger();
    const catalog = await createModelCatalog({ env: openaiEnv(), logger });
    fake.failNext(1, 500);
    const list = await catalog.list({ refresh: true });
    expect(list.map((m) => m.id)).toEqual(['offline/echo', 'openai/gpt-test', 'openai/gpt-other']);
    const warning = lines.map((l) => JSON.parse(l)).find((l) => l.level === 40);
    expect(warning).toMatchObject({ provider: 'openai', error: 'HTTP 500' });
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('starts with an empty openai list when the server is unreachable, and allows any id then', async () => {
    const { logger, lines } = captureLogger();
    const port = await deadPort();
    const catalog = await createModelCatalog({
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
      logger,
    });
    expect(await catalog.list()).toEqual([{ id: 'offline/echo', provider: 'offline' }]);
    expect(lines.some((l) => l.includes('ECONNREFUSED'))).toBe(true);
    expect(lines.join('\n')).not.toContain(KEY);
    const model = await catalog.languageModel('openai/whatever-it-is');
    expect(typeof model === 'object' && model.modelId).toBe('whatever-it-is');
    // No configured provider has models: the default falls back to the offline model.
    expect(await catalog.defaultModelId()).toBe('offline/echo');
  });

  it('refuses an unlisted id with UnknownModelError naming close matches', async () => {
    const catalog = await createModelCatalog({ env: openaiEnv() });
    const error = await catalog.languageModel('openai/gpt-tset').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownModelError);
    expect((error as Error).message).toBe(
      'unknown model "openai/gpt-tset"; did you mean openai/gpt-test, openai/gpt-other?',
    );
    expect((error as UnknownModelError).suggestions[0]).toBe('openai/gpt-test');
  });

  it('explains ids without a provider or with an unknown provider', async () => {
    const catalog = await createModelCatalog({ env: openaiEnv() });
    await expect(catalog.languageModel('gpt-test')).rejects.toThrow(
      'unknown model "gpt-test" (model ids look like <provider>/<model>); did you mean openai/gpt-test',
    );
    await expect(catalog.languageModel('opnai/gpt-test')).rejects.toThrow(
      /no provider "opnai"; providers: offline, openai\); did you mean openai\/gpt-test/,
    );
    await expect(catalog.languageModel('offline/ecko')).rejects.toThrow(
      /did you mean offline\/echo/,
    );
  });

  it('re-lists once before refusing an id the stale cache does not know', async () => {
    const catalog = await createModelCatalog({ env: openaiEnv(), cacheMs: 0 });
    fake.setModels(['gpt-test', 'gpt-fresh']);
    const model = await catalog.languageModel('openai/gpt-fresh');
    expect(typeof model === 'object' && model.provider).toBe('openai.chat');
  });

  it('suggests close matches, best first', async () => {
    const catalog = await createModelCatalog({ env: openaiEnv() });
    expect(await catalog.suggest('openai/gpt-tes')).toEqual([
      'openai/gpt-test',
      'openai/gpt-other',
    ]);
    expect(await catalog.suggest('gpt-other')).toEqual(['openai/gpt-other']);
    expect(await catalog.suggest('echo', 1)).toEqual(['offline/echo']);
    expect(await catalog.suggest('zzzzzzzz')).toEqual([]);
  });

  describe('config providers', () => {
    it('uses a fixed model list without listing, and no key when none is configured', async () => {
      const catalog = await createModelCatalog({
        env: {},
        config: {
          providers: [{ name: 'local', baseUrl: fake.baseUrl, models: ['llama-3', 'qwen'] }],
        },
      });
      expect(catalog.providers()).toEqual(['offline', 'local']);
      expect((await catalog.list()).map((m) => m.id)).toEqual([
        'offline/echo',
        'local/llama-3',
        'local/qwen',
      ]);
      expect(fake.requests).toHaveLength(0);
      await expect(catalog.languageModel('local/llama-4')).rejects.toThrow(
        /did you mean local\/llama-3/,
      );
      expect(await catalog.defaultModelId()).toBe('local/llama-3');
    });

    it('lists models from the endpoint, with the key from apiKeyEnv', async () => {
      const catalog = await createModelCatalog({
        env: { FAKE_KEY: KEY },
        config: {
          providers: [{ name: 'fake-2', baseUrl: `${fake.baseUrl}/`, apiKeyEnv: 'FAKE_KEY' }],
        },
      });
      expect((await catalog.list()).map((m) => m.id)).toEqual([
        'offline/echo',
        'fake-2/gpt-test',
        'fake-2/gpt-other',
      ]);
      expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
      expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('calls a keyless endpoint without an Authorization header', async () => {
      const open = await startFakeOpenAI({ models: ['m1'] });
      try {
        const catalog = await createModelCatalog({
          env: {},
          config: { providers: [{ name: 'open', baseUrl: open.baseUrl }] },
        });
        expect((await catalog.list()).map((m) => m.id)).toContain('open/m1');
        expect(open.requests[0]?.headers.authorization).toBeUndefined();
      } finally {
        await open.close();
      }
    });

    it('rejects bad names, clashes with built-ins, duplicates and bad URLs', async () => {
      const make = (config: ModelsConfig) => createModelCatalog({ env: {}, config });
      await expect(
        make({ providers: [{ name: 'My_Server', baseUrl: fake.baseUrl }] }),
      ).rejects.toThrow(ModelConfigError);
      await expect(
        make({ providers: [{ name: 'My_Server', baseUrl: fake.baseUrl }] }),
      ).rejects.toThrow(/"My_Server" must match \[a-z\]\[a-z0-9-\]\*/);
      await expect(
        make({ providers: [{ name: 'openai', baseUrl: fake.baseUrl }] }),
      ).rejects.toThrow(/"openai" clashes with a built-in provider/);
      await expect(
        make({ providers: [{ name: 'offline', baseUrl: fake.baseUrl }] }),
      ).rejects.toThrow(/clashes/);
      await expect(
        make({
          providers: [
            { name: 'a', baseUrl: fake.baseUrl, models: ['x'] },
            { name: 'a', baseUrl: fake.baseUrl, models: ['y'] },
          ],
        }),
      ).rejects.toThrow(/configured twice/);
      await expect(make({ providers: [{ name: 'b', baseUrl: 'not a url' }] })).rejects.toThrow(
        /is not a URL/,
      );
    });
  });

  describe('defaultModelId', () => {
    it('prefers config.defaultModel', async () => {
      const catalog = await createModelCatalog({
        env: openaiEnv(),
        config: { defaultModel: 'openai/gpt-other' },
      });
      expect(await catalog.defaultModelId()).toBe('openai/gpt-other');
    });

    it('takes the first non-offline provider that has models', async () => {
      const catalog = await createModelCatalog({
        env: {},
        config: {
          providers: [
            { name: 'empty', baseUrl: fake.baseUrl, models: [] },
            { name: 'second', baseUrl: fake.baseUrl, models: ['m2', 'm3'] },
          ],
        },
      });
      expect(await catalog.defaultModelId()).toBe('second/m2');
    });

    it('falls back to offline/echo', async () => {
      const catalog = await createModelCatalog({ env: {} });
      expect(await catalog.defaultModelId()).toBe('offline/echo');
    });
  });

  it('passes offline latency from the config', async () => {
    const catalog = await createModelCatalog({ env: {}, config: { offline: { latencyMs: 7 } } });
    const model = (await catalog.languageModel('offline/echo')) as OfflineLanguageModel;
    expect(model).toBeInstanceOf(OfflineLanguageModel);
    expect((model as unknown as { latencyMs: number }).latencyMs).toBe(7);
  });

  it('lists Anthropic models from its models endpoint with x-api-key, else a fixed list', async () => {
    const seen: Array<{ url: string; headers: Headers }> = [];
    let up = true;
    const stubFetch: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), headers: new Headers(init?.headers) });
      if (!up) throw new TypeError('fetch failed');
      return new Response(JSON.stringify({ data: [{ id: 'claude-test-1', type: 'model' }] }), {
        headers: { 'content-type': 'application/json' },
      });
    };
    const catalog = await createModelCatalog({
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      fetch: stubFetch,
      logger: captureLogger().logger,
    });
    expect(catalog.providers()).toEqual(['offline', 'anthropic']);
    expect((await catalog.list()).map((m) => m.id)).toEqual([
      'offline/echo',
      'anthropic/claude-test-1',
    ]);
    expect(seen[0]?.url).toBe('https://api.anthropic.com/v1/models?limit=100');
    expect(seen[0]?.headers.get('x-api-key')).toBe('sk-ant-test');
    expect(seen[0]?.headers.get('anthropic-version')).toBe('2023-06-01');
    const model = await catalog.languageModel('anthropic/claude-test-1');
    expect(typeof model === 'object' && model.provider).toBe('anthropic.messages');

    up = false;
    const offline = await createModelCatalog({
      env: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      fetch: stubFetch,
      logger: captureLogger().logger,
    });
    const ids = (await offline.list()).map((m) => m.id);
    expect(ids).toContain('anthropic/claude-sonnet-4-5');
    expect(await offline.languageModel('anthropic/claude-not-listed')).toBeTruthy();
  });
});

describe('closeMatches', () => {
  it('scores typos by edit distance with transpositions', () => {
    expect(editDistance('gpt-4o', 'gtp-4o')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('matches bare model names, prefixes and substrings', () => {
    const ids = [
      'openai/gpt-4o',
      'openai/gpt-4o-mini',
      'anthropic/claude-sonnet-4-5',
      'offline/echo',
    ];
    expect(closeMatches('gpt-4', ids)).toEqual(['openai/gpt-4o', 'openai/gpt-4o-mini']);
    expect(closeMatches('sonnet', ids)).toEqual(['anthropic/claude-sonnet-4-5']);
    expect(closeMatches('opnai/gpt-4o', ids, 1)).toEqual(['openai/gpt-4o']);
    expect(closeMatches('', ids)).toEqual([]);
  });
});
