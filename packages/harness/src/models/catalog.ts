import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import type { Logger } from 'pino';
import { ModelConfigError, UnknownModelError, redactSecrets } from './errors.js';
import {
  OFFLINE_DEFAULT_MODEL,
  OFFLINE_MODELS,
  OFFLINE_PROVIDER,
  createOfflineModel,
} from './offline.js';
import { closeMatches } from './suggest.js';

export interface ModelInfo {
  /** `<provider>/<model>`. */
  id: string;
  provider: string;
}

export interface ModelsConfig {
  /** `<provider>/<model>` used when a task names none. */
  defaultModel?: string;
  offline?: { latencyMs?: number };
  /** Extra OpenAI-compatible endpoints (Ollama, vLLM, llama.cpp, LiteLLM, …). */
  providers?: Array<{ name: string; baseUrl: string; apiKeyEnv?: string; models?: string[] }>;
}

export interface ModelCatalog {
  list(options?: { refresh?: boolean }): Promise<ModelInfo[]>;
  defaultModelId(): Promise<string>;
  /** The AI SDK model for an id; throws UnknownModelError (message names the id and close matches) when unknown. */
  languageModel(id: string): Promise<LanguageModel>;
  /** Close matches for a mistyped id, best first (for "did you mean"). */
  suggest(id: string, limit?: number): Promise<string[]>;
  providers(): string[];
}

/** The logger methods the catalog uses; a pino `Logger` fits. */
export type CatalogLogger = Pick<Logger, 'warn' | 'debug'>;

export interface ModelCatalogOptions {
  config?: ModelsConfig;
  /** Where API keys and base URLs are read from; `process.env` by default. */
  env?: NodeJS.ProcessEnv;
  /** Used for listing and for model calls; `globalThis.fetch` by default. */
  fetch?: typeof fetch;
  logger?: CatalogLogger;
  /** How long a model listing stays fresh, in ms (default 30 s). */
  cacheMs?: number;
  /** How long one listing request may take, in ms (default 5 s). */
  listTimeoutMs?: number;
}

/** Names of the built-in providers; config providers may not use them. */
export const BUILTIN_PROVIDERS: readonly string[] = [OFFLINE_PROVIDER, 'openai', 'anthropic'];
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
/** Shown for `anthropic` until its models endpoint has answered. */
export const ANTHROPIC_FALLBACK_MODELS: readonly string[] = [
  'claude-sonnet-4-5',
  'claude-opus-4-5',
  'claude-haiku-4-5',
];
const ANTHROPIC_VERSION = '2023-06-01';
const DEFAULT_CACHE_MS = 30_000;
const DEFAULT_LIST_TIMEOUT_MS = 5_000;
const PROVIDER_NAME = /^[a-z][a-z0-9-]*$/;
/** On api.openai.com, ids that are not chat models (embeddings, audio, images, …). */
const OPENAI_NON_CHAT =
  /embedding|whisper|tts|dall-e|davinci|babbage|moderation|transcribe|realtime|audio|image|search|sora/;

interface Listing {
  url: string;
  headers: Record<string, string>;
  /** Keeps only the ids that are worth offering. */
  filter?: (id: string) => boolean;
}

interface ProviderEntry {
  name: string;
  /** The models known now (without the provider prefix). */
  models: string[];
  /** Where the model list comes from; none for fixed lists. */
  listing?: Listing;
  /** Whether the last listing attempt succeeded (always true for fixed lists). */
  listOk: boolean;
  /** When the last listing attempt finished (ms since epoch); 0 before any. */
  listedAt: number;
  inflight?: Promise<void>;
  /** Secrets to keep out of log lines. */
  secrets: string[];
  create(model: string): LanguageModel;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function normalizeBaseUrl(raw: string, what: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ModelConfigError(`${what}: "${redactSecrets(raw)}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelConfigError(`${what}: "${redactSecrets(raw)}" must be an http(s) URL`);
  }
  return raw.trim().replace(/\/+$/, '');
}

/**
 * A fetch for OpenAI-compatible servers without a key: the OpenAI client always sends
 * `Authorization: Bearer <key>`, so the placeholder header is dropped on the way out.
 */
function withoutAuthorization(base: typeof fetch): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('authorization');
    return base(input, { ...init, headers });
  };
}

function dedupe(ids: Iterable<string>): string[] {
  return [...new Set([...ids].map((id) => id.trim()).filter((id) => id !== ''))];
}

function parseModelList(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new Error('the response has no "data" list');
  const ids: string[] = [];
  for (const item of data) {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id === 'string') ids.push(id);
  }
  return dedupe(ids);
}

function describeListingError(error: unknown, secrets: string[]): string {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (typeof code === 'string') return code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(message.split('\n', 1)[0] ?? '', secrets).slice(0, 200);
}

/**
 * The models the harness can use: the offline model always, OpenAI and Anthropic when
 * their keys are set, and every OpenAI-compatible endpoint in `config.providers`.
 * Listed providers are asked for their models now; a failed listing only logs a warning.
 */
export async function createModelCatalog(options: ModelCatalogOptions = {}): Promise<ModelCatalog> {
  const config = options.config ?? {};
  const env = options.env ?? process.env;
  const baseFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const logger = options.logger;
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const listTimeoutMs = options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
  const entries = new Map<string, ProviderEntry>();

  const offlineOptions = { latencyMs: config.offline?.latencyMs };
  entries.set(OFFLINE_PROVIDER, {
    name: OFFLINE_PROVIDER,
    models: [...OFFLINE_MODELS],
    listOk: true,
    listedAt: 0,
    secrets: [],
    create: (model) => createOfflineModel(model, offlineOptions),
  });

  const openaiKey = nonEmpty(env.OPENAI_API_KEY);
  if (openaiKey) {
    const baseUrl = normalizeBaseUrl(
      nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_OPENAI_BASE_URL,
      'OPENAI_BASE_URL',
    );
    const provider = createOpenAI({ apiKey: openaiKey, baseURL: baseUrl, fetch: baseFetch });
    const isOpenAI = new URL(baseUrl).hostname === 'api.openai.com';
    entries.set('openai', {
      name: 'openai',
      models: [],
      listing: {
        url: `${baseUrl}/models`,
        headers: { authorization: `Bearer ${openaiKey}` },
        filter: isOpenAI ? (id) => !OPENAI_NON_CHAT.test(id) : undefined,
      },
      listOk: false,
      listedAt: 0,
      secrets: [openaiKey],
      create: (model) => provider.chat(model),
    });
  }

  const anthropicKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (anthropicKey) {
    const baseUrl = normalizeBaseUrl(
      nonEmpty(env.ANTHROPIC_BASE_URL) ?? DEFAULT_ANTHROPIC_BASE_URL,
      'ANTHROPIC_BASE_URL',
    );
    const provider = createAnthropic({ apiKey: anthropicKey, baseURL: baseUrl, fetch: baseFetch });
    entries.set('anthropic', {
      name: 'anthropic',
      models: [...ANTHROPIC_FALLBACK_MODELS],
      listing: {
        url: `${baseUrl}/models?limit=100`,
        headers: { 'x-api-key': anthropicKey, 'anthropic-version': ANTHROPIC_VERSION },
      },
      listOk: false,
      listedAt: 0,
      secrets: [anthropicKey],
      create: (model) => provider.messages(model),
    });
  }

  for (const [index, spec] of (config.providers ?? []).entries()) {
    const where = `providers[${index}]`;
    const name = typeof spec?.name === 'string' ? spec.name : '';
    if (!PROVIDER_NAME.test(name)) {
      throw new ModelConfigError(
        `${where}: provider name "${name}" must match [a-z][a-z0-9-]* (lower-case letters, digits, dashes)`,
      );
    }
    if (BUILTIN_PROVIDERS.includes(name)) {
      throw new ModelConfigError(
        `${where}: provider name "${name}" clashes with a built-in provider (${BUILTIN_PROVIDERS.join(', ')})`,
      );
    }
    if (entries.has(name)) {
      throw new ModelConfigError(`${where}: provider "${name}" is configured twice`);
    }
    if (typeof spec.baseUrl !== 'string' || spec.baseUrl.trim() === '') {
      throw new ModelConfigError(`${where} (${name}): baseUrl is required`);
    }
    const baseUrl = normalizeBaseUrl(spec.baseUrl, `${where} (${name}) baseUrl`);
    if (spec.models !== undefined && !Array.isArray(spec.models)) {
      throw new ModelConfigError(`${where} (${name}): models must be a list of model ids`);
    }
    let apiKey: string | undefined;
    if (spec.apiKeyEnv) {
      apiKey = nonEmpty(env[spec.apiKeyEnv]);
      if (!apiKey) {
        logger?.warn(
          { provider: name, apiKeyEnv: spec.apiKeyEnv },
          'model provider API key variable is not set; calling it without a key',
        );
      }
    }
    const provider = createOpenAI({
      name,
      baseURL: baseUrl,
      apiKey: apiKey ?? 'no-key',
      fetch: apiKey ? baseFetch : withoutAuthorization(baseFetch),
    });
    const fixed = spec.models
      ? dedupe(spec.models.filter((m) => typeof m === 'string'))
      : undefined;
    entries.set(name, {
      name,
      models: fixed ?? [],
      listing: fixed
        ? undefined
        : {
            url: `${baseUrl}/models`,
            headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          },
      listOk: fixed !== undefined,
      listedAt: 0,
      secrets: apiKey ? [apiKey] : [],
      create: (model) => provider.chat(model),
    });
  }

  async function fetchListing(entry: ProviderEntry, listing: Listing): Promise<void> {
    try {
      const response = await baseFetch(listing.url, {
        headers: { accept: 'application/json', ...listing.headers },
        signal: AbortSignal.timeout(listTimeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(`HTTP ${response.status}`);
      }
      let ids = parseModelList(await response.json());
      if (listing.filter) ids = ids.filter(listing.filter);
      entry.models = ids;
      entry.listOk = true;
      logger?.debug({ provider: entry.name, models: ids.length }, 'model list refreshed');
    } catch (error) {
      entry.listOk = false;
      logger?.warn(
        {
          provider: entry.name,
          url: redactSecrets(listing.url, entry.secrets),
          error: describeListingError(error, entry.secrets),
          kept: entry.models.length,
        },
        'listing models failed; keeping the last known list',
      );
    } finally {
      entry.listedAt = Date.now();
    }
  }

  function refreshEntry(entry: ProviderEntry, force: boolean): Promise<void> {
    const listing = entry.listing;
    if (!listing) return Promise.resolve();
    if (!force && entry.listedAt > 0 && Date.now() - entry.listedAt < cacheMs) {
      return Promise.resolve();
    }
    if (!entry.inflight) {
      entry.inflight = fetchListing(entry, listing).finally(() => {
        entry.inflight = undefined;
      });
    }
    return entry.inflight;
  }

  async function refreshAll(force: boolean): Promise<void> {
    await Promise.all([...entries.values()].map((entry) => refreshEntry(entry, force)));
  }

  function snapshot(): ModelInfo[] {
    const out: ModelInfo[] = [];
    for (const entry of entries.values()) {
      for (const model of entry.models)
        out.push({ id: `${entry.name}/${model}`, provider: entry.name });
    }
    return out;
  }

  /** Lenient providers accept ids they have not listed: their listing failed or was empty. */
  function lenient(entry: ProviderEntry): boolean {
    return !entry.listOk || entry.models.length === 0;
  }

  async function suggest(id: string, limit = 3): Promise<string[]> {
    const known = (await catalog.list()).map((info) => info.id);
    return closeMatches(id, known, limit);
  }

  const catalog: ModelCatalog = {
    async list(listOptions) {
      await refreshAll(listOptions?.refresh === true);
      return snapshot();
    },

    async defaultModelId() {
      const configured = nonEmpty(config.defaultModel);
      if (configured) return configured;
      await refreshAll(false);
      for (const entry of entries.values()) {
        if (entry.name === OFFLINE_PROVIDER) continue;
        const first = entry.models[0];
        if (first) return `${entry.name}/${first}`;
      }
      return OFFLINE_DEFAULT_MODEL;
    },

    async languageModel(id) {
      const trimmed = id.trim();
      const slash = trimmed.indexOf('/');
      if (slash <= 0 || slash === trimmed.length - 1) {
        throw new UnknownModelError(
          id,
          await suggest(trimmed),
          'model ids look like <provider>/<model>',
        );
      }
      const providerName = trimmed.slice(0, slash);
      const model = trimmed.slice(slash + 1);
      const entry = entries.get(providerName);
      if (!entry) {
        throw new UnknownModelError(
          id,
          await suggest(trimmed),
          `no provider "${providerName}"; providers: ${[...entries.keys()].join(', ')}`,
        );
      }
      if (!entry.models.includes(model)) {
        // The list may be stale: ask again (at most once per cache period) before refusing.
        await refreshEntry(entry, false);
        if (!entry.models.includes(model) && !lenient(entry)) {
          throw new UnknownModelError(id, await suggest(trimmed));
        }
      }
      return entry.create(model);
    },

    suggest,

    providers() {
      return [...entries.keys()];
    },
  };

  await refreshAll(false);
  const configured = nonEmpty(config.defaultModel);
  if (configured) {
    const slash = configured.indexOf('/');
    const providerName = slash > 0 ? configured.slice(0, slash) : '';
    if (!entries.has(providerName)) {
      logger?.warn(
        { defaultModel: configured, providers: [...entries.keys()] },
        'the default model names no configured provider',
      );
    }
  }
  return catalog;
}
