/**
 * What a failed AI SDK call becomes. Apart from errors.ts so that the thread serving
 * requests, which sees only the stream worker's plain failures, does not load the AI SDK.
 */
import { STATUS_CODES } from 'node:http';
import { APICallError, LoadAPIKeyError, RetryError } from 'ai';
import { ModelError, redactSecrets } from './errors.js';

const MAX_DETAIL = 160;

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.trim();
}

function shorten(text: string, max = MAX_DETAIL): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ConnectionRefused: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  ConnectionReset: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response in time',
  UND_ERR_BODY_TIMEOUT: 'response stalled',
  UND_ERR_SOCKET: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
};

/** The first error code (`ECONNREFUSED`, …) in an error's cause chain. */
function findErrorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 6 || typeof error !== 'object' || error === null) return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof record.code === 'string' && record.code !== '') return record.code;
  if (Array.isArray(record.errors)) {
    for (const inner of record.errors) {
      const code = findErrorCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return findErrorCode(record.cause, depth + 1);
}

function networkReason(code: string): string {
  const known = NETWORK_REASONS[code];
  if (known) return known;
  if (/CERT|TLS|SSL/i.test(code)) return 'TLS certificate error';
  return code.toLowerCase().replace(/_/g, ' ');
}

const ENDPOINT_SUFFIXES = [
  '/chat/completions',
  '/completions',
  '/responses',
  '/messages',
  '/models',
];

/** The server part of a request URL: no query, no credentials, no endpoint path. */
function serverOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    let path = parsed.pathname.replace(/\/+$/, '');
    for (const suffix of ENDPOINT_SUFFIXES) {
      if (path.endsWith(suffix)) {
        path = path.slice(0, -suffix.length);
        break;
      }
    }
    return `${parsed.protocol}//${parsed.host}${path}`;
  } catch {
    return undefined;
  }
}

/** The server's own error message from an OpenAI/Anthropic-style error body, if any. */
function serverMessage(error: APICallError): string | undefined {
  const fromData = (data: unknown): string | undefined => {
    if (typeof data !== 'object' || data === null) return undefined;
    const inner = (data as { error?: unknown }).error;
    if (typeof inner === 'string') return inner;
    if (typeof inner === 'object' && inner !== null) {
      const message = (inner as { message?: unknown }).message;
      if (typeof message === 'string') return message;
    }
    const message = (data as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  };
  const found = fromData(error.data);
  if (found) return found;
  if (error.responseBody) {
    try {
      return fromData(JSON.parse(error.responseBody));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function unwrap(error: unknown): unknown {
  let current = error;
  for (let i = 0; i < 4; i++) {
    if (RetryError.isInstance(current)) current = current.lastError;
    else break;
  }
  return current;
}

/**
 * Turns whatever a model call threw into a `ModelError` with a short, safe message:
 * `model openai/gpt-x: 401 unauthorized (Incorrect API key provided)` or
 * `model openai/x: cannot reach http://127.0.0.1:9/v1 (connection refused)`.
 * `secrets` are masked wherever they occur, on top of the generic key patterns.
 */
export function toModelError(
  modelId: string,
  thrown: unknown,
  secrets: readonly string[] = [],
): ModelError {
  if (thrown instanceof ModelError) return thrown;
  const error = unwrap(thrown);
  const clean = (text: string) => shorten(redactSecrets(firstLine(text), secrets));

  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status != null) {
      const phrase = (STATUS_CODES[status] ?? 'error').toLowerCase();
      const detail = serverMessage(error) ?? error.message;
      const shown = detail ? clean(detail) : '';
      const extra = shown && shown.toLowerCase() !== phrase ? ` (${shown})` : '';
      return new ModelError(modelId, `${status} ${phrase}${extra}`, status);
    }
    const code = findErrorCode(error);
    const server = serverOf(error.url);
    if (code || server) {
      const why = code ? networkReason(code) : clean(error.message);
      return new ModelError(
        modelId,
        server
          ? `cannot reach ${redactSecrets(server, secrets)} (${why})`
          : `cannot connect (${why})`,
      );
    }
    return new ModelError(modelId, clean(error.message));
  }

  if (LoadAPIKeyError.isInstance(error)) return new ModelError(modelId, 'no API key configured');

  if (typeof error === 'object' && error !== null) {
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError') return new ModelError(modelId, 'timed out');
    const code = findErrorCode(error);
    if (code && (NETWORK_REASONS[code] || /^E[A-Z]+$/.test(code))) {
      return new ModelError(modelId, `cannot connect (${networkReason(code)})`);
    }
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim() !== '') {
      return new ModelError(modelId, clean(message));
    }
  }
  if (typeof error === 'string' && error.trim() !== '')
    return new ModelError(modelId, clean(error));
  return new ModelError(modelId, 'unknown error');
}
