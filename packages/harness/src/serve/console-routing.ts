import { format } from 'node:util';
import { A2AError } from '@a2a-js/sdk/errors';
import type { Level, Logger } from 'pino';

type ConsoleMethod = 'error' | 'warn' | 'info' | 'log' | 'debug' | 'trace';

const LEVELS: Record<ConsoleMethod, Level> = {
  error: 'error',
  warn: 'warn',
  info: 'info',
  log: 'info',
  debug: 'debug',
  trace: 'trace',
};

/**
 * The level a console line deserves. The SDK writes "Unhandled error in
 * JSON-RPC POST handler" and "Pre-stream error" with console.error for every
 * refused request (no A2A-Version, a message over a limit): a protocol error
 * is the client's, already in the request's own log line, so it is debug.
 */
function levelOf(method: ConsoleMethod, args: unknown[]): Level {
  const level = LEVELS[method];
  if ((level === 'error' || level === 'warn') && args.some((arg) => arg instanceof A2AError))
    return 'debug';
  return level;
}

/**
 * Every line the server writes is a JSON log line. What
 * libraries print with `console.*` (the A2A SDK does) goes to `logger`
 * instead, at a fitting level, with any error as `err`. Returns a function
 * that puts the console back.
 */
export function routeConsoleTo(logger: Logger): () => void {
  const saved = new Map<ConsoleMethod, (...args: unknown[]) => void>();
  for (const method of Object.keys(LEVELS) as ConsoleMethod[]) {
    saved.set(method, console[method]);
    console[method] = (...args: unknown[]) => {
      const level = levelOf(method, args);
      if (!logger.isLevelEnabled(level)) return;
      const err = args.find((arg) => arg instanceof Error);
      const text = format(...args.filter((arg) => arg !== err));
      logger[level]({ source: 'console', ...(err ? { err } : {}) }, text);
    };
  }
  return () => {
    for (const [method, original] of saved) console[method] = original;
  };
}
