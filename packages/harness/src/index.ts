/**
 * The harness as a library, for running it inside another process (the
 * shared test helpers in a2a-testing do). The command line is `a2a-harness`.
 */
export { serve, type RunningHarness, type ServeOptions } from './serve/serve.js';
export type { HarnessConfig } from './config/config.js';
export { ApiKeys, parseApiKeyList, type ApiKeyEntry } from './serve/api-keys.js';
export { openDatabase, type HarnessDatabase } from './store/index.js';
