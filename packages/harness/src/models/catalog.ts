import type { LanguageModel } from 'ai';
import { UnknownModelError, redactSecrets } from './errors.js';
import { OFFLINE_DEFAULT_MODEL, OFFLINE_PROVIDER } from './offline.js';
import {
  configureProviders,
  dedupe,
  nonEmpty,
  type CatalogLogger,
  type Listing,
  type ModelsConfig,
  type ProviderEntry,
} from './providers.js';
import { closeMatches } from './suggest.js';

export {
  ANTHROPIC_FALLBACK_MODELS,
  BUILTIN_PROVIDERS,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_OPENAI_BASE_URL,
  type CatalogLogger,
  type ModelsConfig,
} from './providers.js';

export interface ModelInfo {
  /** `<provider>/<model>`. */
  id: string;
  provider: string;
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

const DEFAULT_CACHE_MS = 30_000;
const DEFAULT_LIST_TIMEOUT_MS = 5_000;
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
  const entries = configureProviders(config, env, baseFetch, logger);

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
