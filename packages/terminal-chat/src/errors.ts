import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import { sanitizeLine } from './sanitize.js';

function causeOf(error: Error): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  // Node's "fetch failed" hides the reason in its cause; a refused dual-stack connect is an AggregateError.
  const message = cause.message || (cause instanceof AggregateError ? causeOf(cause) : undefined);
  if (typeof code === 'string' && message && !message.includes(code)) return `${code}: ${message}`;
  return message || (typeof code === 'string' ? code : undefined);
}

/** One line saying what went wrong, without stack traces; safe to draw. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return sanitizeLine(String(error));
  const cause = causeOf(error);
  const message = error.message || error.name;
  return sanitizeLine(cause ? `${message} (${cause})` : message);
}

/** Whether the agent said the task does not exist (either transport's error). */
export function isTaskNotFound(error: unknown): boolean {
  return error instanceof TaskNotFoundError;
}
