import type { LanguageModel } from 'ai';
import type { Logger } from 'pino';
import { ModelConfigError, redactSecrets } from './errors.js';
import { OFFLINE_MODELS, OFFLINE_PROVIDER, createOfflineModel } from './offline.js';

export interface ModelsConfig {
  /** `<provider>/<model>` used when a task names none. */
  defaultModel?: string;
  offline?: { latencyMs?: number };
  /** Extra OpenAI-compatible endpoints (Ollama, vLLM, llama.cpp, LiteLLM, …). */
  providers?: Array<{ name: string; baseUrl: string; apiKeyEnv?: string; models?: string[] }>;
}

/** The logger methods the catalog uses; a pino `Logger` fits. */
export type CatalogLogger = Pick<Logger, 'warn' | 'debug'>;

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
const PROVIDER_NAME = /^[a-z][a-z0-9-]*$/;
/** On api.openai.com, ids that are not chat models (embeddings, audio, images, …). */
const OPENAI_NON_CHAT =
  /embedding|whisper|tts|dall-e|davinci|babbage|moderation|transcribe|realtime|audio|image|search|sora/;

export interface Listing {
  url: string;
  headers: Record<string, string>;
  /** Keeps only the ids that are worth offering. */
  filter?: (id: string) => boolean;
}

export interface ProviderEntry {
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
  /** Builds the model; a provider's AI SDK code is loaded on the first call. */
  create(model: string): Promise<LanguageModel>;
}

export function nonEmpty(value: string | undefined): string | undefined {
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

export function dedupe(ids: Iterable<string>): string[] {
  return [...new Set([...ids].map((id) => id.trim()).filter((id) => id !== ''))];
}

/**
 * What `build` makes, made on the first call. The thread serving requests lists
 * models, and while the stream worker streams them it builds none: it never
 * loads a provider's AI SDK code.
 */
function onFirstUse<T>(build: () => Promise<T>): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () => (built ??= build());
}

/**
 * The providers a models config and environment name: the offline model always,
 * OpenAI and Anthropic when their keys are set, and every OpenAI-compatible
 * endpoint in `config.providers`. Nothing is fetched here: the catalog lists
 * models, and a stream worker builds models from the same config.
 */
export function configureProviders(
  config: ModelsConfig,
  env: NodeJS.ProcessEnv,
  baseFetch: typeof fetch,
  logger?: CatalogLogger,
): Map<string, ProviderEntry> {
  const entries = new Map<string, ProviderEntry>();
  const offlineOptions = { latencyMs: config.offline?.latencyMs };
  entries.set(OFFLINE_PROVIDER, {
    name: OFFLINE_PROVIDER,
    models: [...OFFLINE_MODELS],
    listOk: true,
    listedAt: 0,
    secrets: [],
    create: async (model) => createOfflineModel(model, offlineOptions),
  });

  const openaiKey = nonEmpty(env.OPENAI_API_KEY);
  if (openaiKey) {
    const baseUrl = normalizeBaseUrl(
      nonEmpty(env.OPENAI_BASE_URL) ?? DEFAULT_OPENAI_BASE_URL,
      'OPENAI_BASE_URL',
    );
    const provider = onFirstUse(async () =>
      (await import('@ai-sdk/openai')).createOpenAI({
        apiKey: openaiKey,
        baseURL: baseUrl,
        fetch: baseFetch,
      }),
    );
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
      create: async (model) => (await provider()).chat(model),
    });
  }

  const anthropicKey = nonEmpty(env.ANTHROPIC_API_KEY);
  if (anthropicKey) {
    const baseUrl = normalizeBaseUrl(
      nonEmpty(env.ANTHROPIC_BASE_URL) ?? DEFAULT_ANTHROPIC_BASE_URL,
      'ANTHROPIC_BASE_URL',
    );
    const provider = onFirstUse(async () =>
      (await import('@ai-sdk/anthropic')).createAnthropic({
        apiKey: anthropicKey,
        baseURL: baseUrl,
        fetch: baseFetch,
      }),
    );
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
      create: async (model) => (await provider()).messages(model),
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
    const provider = onFirstUse(async () =>
      (await import('@ai-sdk/openai')).createOpenAI({
        name,
        baseURL: baseUrl,
        apiKey: apiKey ?? 'no-key',
        fetch: apiKey ? baseFetch : withoutAuthorization(baseFetch),
      }),
    );
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
      create: async (model) => (await provider()).chat(model),
    });
  }
  return entries;
}
