/**
 * Parts of the harness for this repository's benchmarks, which build a bare
 * agent from the same model, store and event code to compare against, and
 * for the shared test helpers. Not a public API: it changes whenever the
 * harness does.
 */
export { A2A_METHODS } from './serve/a2a-call/index.js';
export { createOfflineModel, streamModelTurn } from './models/index.js';
export { AnswerChunker } from './models/answer-chunks.js';
export { HarnessTaskStore, openDatabase } from './store/index.js';
export { answerArtifact } from './turns/turn-events.js';
export { DEFAULT_TURN_OPTIONS } from './turns/turn-options.js';
