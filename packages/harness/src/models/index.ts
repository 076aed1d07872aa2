export {
  createModelCatalog,
  ANTHROPIC_FALLBACK_MODELS,
  BUILTIN_PROVIDERS,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_OPENAI_BASE_URL,
  type CatalogLogger,
  type ModelCatalog,
  type ModelCatalogOptions,
  type ModelInfo,
  type ModelsConfig,
} from './catalog.js';
export {
  ModelAbortError,
  ModelConfigError,
  ModelError,
  UnknownModelError,
  ModelTimeoutError,
  isAbortError,
  redactSecrets,
  type ModelTimeouts,
} from './errors.js';
export { toModelError } from './call-errors.js';
export {
  OFFLINE_DEFAULT_MODEL,
  OFFLINE_MODELS,
  OFFLINE_PROVIDER,
  OfflineLanguageModel,
  countWords,
  createOfflineModel,
  offlineReply,
  wordDeltas,
  type OfflineModelOptions,
} from './offline.js';
export {
  streamModelTurn,
  type ModelTurnResult,
  type StreamModelTurnOptions,
} from './stream-turn.js';
export { closeMatches, editDistance } from './suggest.js';
export { streamGrouped } from './grouped-stream.js';
export {
  InLoopModelStreams,
  type ModelStreamRequest,
  type ModelStreams,
  type OnAnswerChunk,
} from './model-streams.js';
export { spawnStreamWorker, StreamWorker } from './stream-worker-thread.js';
export { WorkerModelStreams } from './worker-streams.js';
export { DEFAULT_CHUNKING, type ChunkingOptions } from './answer-chunks.js';
