import { DEFAULT_MAX_FILE_BYTES } from '../commands/custom/loader.js';

/** The input limits of the config file's `limits` section; docs/configuration.md#limits. */
export interface Limits {
  /** Bytes in one request body (after decompression). Past it: HTTP 413. */
  bodyBytes: number;
  /** Parts in one incoming message. */
  partsPerMessage: number;
  /** Characters (code points) in one incoming message, summed over its text parts. */
  textChars: number;
  /** Characters (code points) in one command's arguments. */
  argumentChars: number;
  /** Ordinary messages allowed to wait behind a running turn, per task. */
  queuedPerTask: number;
  /** Bytes in one custom command file; larger files are skipped. */
  commandFileBytes: number;
  /** Commands one principal may send a minute, on average; 0: no limit. Past it: HTTP 429. */
  commandsPerMinute: number;
  /** Commands one principal may send at once before `commandsPerMinute` applies. */
  commandBurst: number;
  /** Ordinary messages (turns) one principal may send a minute, on average; 0: no limit. */
  turnsPerMinute: number;
  /** Ordinary messages one principal may send at once before `turnsPerMinute` applies. */
  turnBurst: number;
  /** Characters in an id a client names (messageId, taskId, contextId, referenced tasks). */
  idChars: number;
  /**
   * Characters of stored history one principal's tasks may hold before `/fork`
   * (or any command that copies history into a new task) is refused.
   */
  historyCharsPerOwner: number;
  /** Open connections the server holds at once; more are closed at once. */
  maxConnections: number;
  /** Milliseconds a client has to send a request's headers. */
  headersTimeoutMs: number;
  /** Milliseconds a client has to send a whole request, body included. */
  requestTimeoutMs: number;
  /** SSE streams one principal may hold open at once; without keys, all callers together. */
  streamsPerPrincipal: number;
  /** Bytes written to one SSE stream and not yet taken by its client; past them it is dropped. */
  streamBufferBytes: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  bodyBytes: 1024 * 1024,
  partsPerMessage: 64,
  textChars: 100_000,
  argumentChars: 10_000,
  queuedPerTask: 16,
  commandFileBytes: DEFAULT_MAX_FILE_BYTES,
  commandsPerMinute: 0,
  commandBurst: 20,
  turnsPerMinute: 0,
  turnBurst: 5,
  idChars: 256,
  historyCharsPerOwner: 256 * 1024 * 1024,
  maxConnections: 4096,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  streamsPerPrincipal: 100,
  streamBufferBytes: 1024 * 1024,
});

/** The limits in force: each key the config sets, the default for the others. */
export function resolveLimits(configured: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const value = configured[key];
    if (value !== undefined) limits[key] = value;
  }
  return limits;
}

const MAX = Number.MAX_SAFE_INTEGER;

/**
 * The JSON schema of the config file's `limits` section: whole numbers, at least 1
 * (`queuedPerTask` may be 0: then nothing waits; a rate of 0 is no limit). A command file is read into memory
 * whole, so its limit stops at 16 MiB.
 */
export const LIMITS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    bodyBytes: { type: 'integer', minimum: 1, maximum: MAX },
    partsPerMessage: { type: 'integer', minimum: 1, maximum: MAX },
    textChars: { type: 'integer', minimum: 1, maximum: MAX },
    argumentChars: { type: 'integer', minimum: 1, maximum: MAX },
    queuedPerTask: { type: 'integer', minimum: 0, maximum: MAX },
    commandFileBytes: { type: 'integer', minimum: 1, maximum: 16 * 1024 * 1024 },
    commandsPerMinute: { type: 'integer', minimum: 0, maximum: MAX },
    commandBurst: { type: 'integer', minimum: 1, maximum: MAX },
    turnsPerMinute: { type: 'integer', minimum: 0, maximum: MAX },
    turnBurst: { type: 'integer', minimum: 1, maximum: MAX },
    idChars: { type: 'integer', minimum: 36, maximum: MAX },
    historyCharsPerOwner: { type: 'integer', minimum: 1, maximum: MAX },
    maxConnections: { type: 'integer', minimum: 1, maximum: MAX },
    headersTimeoutMs: { type: 'integer', minimum: 1, maximum: MAX },
    requestTimeoutMs: { type: 'integer', minimum: 1, maximum: MAX },
    streamsPerPrincipal: { type: 'integer', minimum: 1, maximum: MAX },
    streamBufferBytes: { type: 'integer', minimum: 1, maximum: MAX },
  },
} as const;
