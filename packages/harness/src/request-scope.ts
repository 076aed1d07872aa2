/**
 * What the code serving a request can reach from its `ServerCallContext`: the
 * request's logger and whether its client has hung up. Passed explicitly
 * rather than through async context: an AsyncLocalStorage puts a promise hook
 * on every await of the process, about a tenth of a command's CPU (profiled).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { STATE_HEADERS_KEY, type ServerCallContext } from '@a2a-js/sdk/server';
import type { Logger } from 'pino';

interface RequestScope {
  log: () => Logger;
  res: ServerResponse;
  hangUp?: AbortController;
}

/**
 * Kept on the request's headers object, under a symbol and not enumerable: the
 * SDK's context builder keeps that very object in `ServerCallContext.state`,
 * so a context leads back to its request. Not in a WeakMap: a long-lived map
 * holding every request's scope kept requests alive through young-generation
 * collections, so each was copied into the old generation (about a third of
 * what a command promoted, measured with `--trace-gc-nvp`).
 */
const SCOPE = Symbol('a2a-harness.requestScope');

type ScopedHeaders = IncomingHttpHeaders & { [SCOPE]?: RequestScope };

/**
 * Called once a request, by the logging middleware, with a way to make the
 * request's logger: it is made on first use (most commands log nothing), and
 * kept. Returns the same lazy getter.
 */
export function enterRequestScope(
  req: IncomingMessage,
  res: ServerResponse,
  makeLog: () => Logger,
): () => Logger {
  let made: Logger | undefined;
  const log = () => (made ??= makeLog());
  Object.defineProperty(req.headers, SCOPE, { value: { log, res } satisfies RequestScope });
  return log;
}

function scopeOf(context: ServerCallContext | undefined): RequestScope | undefined {
  const headers = context?.state.get(STATE_HEADERS_KEY);
  return headers && typeof headers === 'object' ? (headers as ScopedHeaders)[SCOPE] : undefined;
}

/** The logger of the request `context` belongs to (its lines carry the request id), else `fallback`. */
export function requestLog(context: ServerCallContext | undefined, fallback: Logger): Logger {
  return scopeOf(context)?.log() ?? fallback;
}

/**
 * Aborts when the client of the request `context` belongs to has hung up;
 * undefined outside a request. The SDK's SSE handlers go on iterating a
 * stream after its client has gone, so a subscription to an idle task would
 * otherwise live, and buffer, for good. Made on first use: a command pays nothing.
 */
export function hangUpSignal(context: ServerCallContext | undefined): AbortSignal | undefined {
  const scope = scopeOf(context);
  if (!scope) return undefined;
  if (!scope.hangUp) {
    const hangUp = new AbortController();
    scope.hangUp = hangUp;
    if (scope.res.closed) hangUp.abort();
    else scope.res.once('close', () => hangUp.abort());
  }
  return scope.hangUp.signal;
}

/** The HTTP request `context` belongs to; undefined outside one. */
export function requestOf(context: ServerCallContext | undefined): IncomingMessage | undefined {
  return scopeOf(context)?.res.req;
}

/** The response of the request `context` belongs to; undefined outside a request. */
export function responseOf(context: ServerCallContext | undefined): ServerResponse | undefined {
  return scopeOf(context)?.res;
}
