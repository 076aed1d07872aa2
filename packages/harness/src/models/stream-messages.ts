import { ModelAbortError, ModelError, ModelTimeoutError, type ModelTimeouts } from './errors.js';
import type { ModelStreamRequest } from './model-streams.js';
import type { ModelsConfig } from './providers.js';
import type { ModelTurnResult } from './stream-turn.js';

/** What the stream worker is told of one harness: enough to build its catalog's models. */
export interface StreamWorkerSetup {
  config: Pick<ModelsConfig, 'offline' | 'providers'>;
  /** API keys and base URLs, as the catalog read them. */
  env: Record<string, string | undefined>;
}

/**
 * What the serving thread tells the stream worker. Each harness using the
 * worker has a setup of its own, by number, and each answer names it.
 */
export type ToStreamWorker =
  | ({ type: 'setup'; setup: number } & StreamWorkerSetup)
  | { type: 'forget'; setup: number }
  | { type: 'start'; id: number; setup: number; request: ModelStreamRequest }
  | { type: 'abort'; id: number };

/** What the stream worker tells the serving thread, in the order it happened. */
export type FromStreamWorker =
  | { type: 'chunk'; id: number; text: string; first: boolean }
  | { type: 'done'; id: number; result: ModelTurnResult }
  | { type: 'failed'; id: number; error: StreamFailure };

/** A failed stream's error as plain data: errors lose their class across threads. */
export type StreamFailure =
  | { kind: 'timeout'; which: keyof ModelTimeouts; ms: number }
  | { kind: 'model'; reason: string; statusCode?: number }
  | { kind: 'abort'; message: string };

/** The error `streamModelTurn` would have thrown for `failure`. */
export function errorOf(failure: StreamFailure, modelId: string): Error {
  switch (failure.kind) {
    case 'timeout':
      return new ModelTimeoutError(failure.which, modelId, failure.ms);
    case 'abort':
      return new ModelAbortError(failure.message);
    case 'model':
      return new ModelError(modelId, failure.reason, failure.statusCode);
  }
}
