/**
 * Errors that mean the database could not be reached, rather than that a
 * statement was wrong: the server is down or restarting, or ended the
 * connection. Clients are told so, and to try again.
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01', // admin_shutdown: pg_terminate_backend, or a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the server is starting or stopping
]);

/** What node-postgres says when a connection dies or cannot be had; it sets no code on these. */
const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
];

export const DATABASE_UNREACHABLE_MESSAGE =
  'The database is unreachable just now, so the server could not complete this request. Try again shortly; a message sent again with the same messageId is not run twice.';

export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08')))
    return true;
  if (UNREACHABLE_MESSAGES.some((message) => error.message.includes(message))) return true;
  // An AggregateError (connecting to every address failed) or a wrapped cause.
  const inner = (error as { errors?: unknown[] }).errors ?? [];
  return inner.some(isDatabaseUnreachable) || isDatabaseUnreachable(error.cause);
}

export const STORAGE_FULL_MESSAGE =
  "The server's storage is full, so this request could not be stored. Try again later; a message sent again with the same messageId is not run twice.";

/** SQLite's "database or disk is full", PostgreSQL's disk_full: the write was refused whole. */
const STORAGE_FULL_CODES = new Set(['SQLITE_FULL', '53100']);

export function isStorageFull(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && STORAGE_FULL_CODES.has(code)) || isStorageFull(error.cause);
}

/** Waits between tries while the database is unreachable: quickly at first, then every 5 s. */
const RETRY_MS = [100, 250, 500, 1000, 2000, 5000];

/**
 * Runs `write` until the database takes it: a write that must not be lost
 * (a turn's ending) waits out an outage instead of failing. Any other error,
 * or `giveUp()` turning true, ends the tries with the error.
 */
export async function retryWhileUnreachable<T>(
  write: (attempt: number) => Promise<T>,
  options: { giveUp?: () => boolean; onWait?: (error: Error, attempt: number) => void } = {},
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(attempt);
    } catch (error) {
      if (!isDatabaseUnreachable(error) || options.giveUp?.()) throw error;
      options.onWait?.(error as Error, attempt);
      const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
