import { limitWords } from '../config/limit-words.js';

/** A model call failed. The message is one readable line: no stack, no request, no key. */
export class ModelError extends Error {
  override name = 'ModelError';
  /** `<provider>/<model>` of the failed call. */
  readonly modelId: string;
  /** The HTTP status the server answered with, when it answered. */
  readonly statusCode: number | undefined;
  /** The failure without the `model <id>: ` prefix, e.g. `401 unauthorized`. */
  readonly reason: string;

  constructor(modelId: string, reason: string, statusCode?: number) {
    super(`model ${modelId}: ${reason}`);
    this.modelId = modelId;
    this.reason = reason;
    this.statusCode = statusCode;
  }
}

/** A model id that no provider knows; the message names the id and up to 3 close matches. */
export class UnknownModelError extends Error {
  override name = 'UnknownModelError';
  readonly modelId: string;
  /** Close matches, best first. */
  readonly suggestions: string[];

  constructor(modelId: string, suggestions: string[], detail?: string) {
    const hint = suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : '';
    super(`unknown model "${modelId}"${detail ? ` (${detail})` : ''}${hint}`);
    this.modelId = modelId;
    this.suggestions = suggestions;
  }
}

/** The models configuration is unusable (bad provider name, clash, bad URL). */
export class ModelConfigError extends Error {
  override name = 'ModelConfigError';
}

/** A model turn was stopped by its abort signal. Its `name` is `AbortError`, like the platform's. */
export class ModelAbortError extends Error {
  override name = 'AbortError';

  constructor(message = 'the model turn was aborted', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** True for the abort errors of the platform, of undici and of this module. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    (error.name === 'AbortError' || error.name === 'ResponseAborted')
  );
}

/**
 * Masks what looks like a credential: `sk-…` style keys, bearer tokens, long opaque
 * tokens, key-like query parameters and URL user-info.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out
    .replace(/\/\/[^/\s:@]+:[^/\s@]+@/g, '//[redacted]@')
    .replace(/([?&](?:key|api[_-]?key|token|access_token|auth)=)[^&\s]+/gi, '$1[redacted]')
    .replace(/\bBearer\s+\S+/gi, 'Bearer [redacted]')
    .replace(/\b(?:sk|pk|rk)-[A-Za-z0-9][\w\-*.]{5,}/g, '[redacted]')
    .replace(/[A-Za-z0-9_-]{32,}/g, '[redacted]');
}

/** Each ends the turn with a note naming it (`ModelTimeoutError`). */
export interface ModelTimeouts {
  /** From the call until the model's first part. */
  firstByteMs: number;
  /** Between two parts of the stream. */
  idleMs: number;
  /** The whole answer. */
  totalMs: number;
}

/** Which timeout fired; the message says so in a person's words (`limitWords`). */
export class ModelTimeoutError extends Error {
  override name = 'ModelTimeoutError';
  constructor(
    readonly which: keyof ModelTimeouts,
    modelId: string,
    readonly ms: number,
  ) {
    super(limitWords.modelTimeout(which, modelId, ms));
  }
}

/** What a turn aborted by `signal` rejects with: the abort reason when it is an abort error. */
export function abortedError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new ModelAbortError('the model turn was aborted', { cause: reason });
}
