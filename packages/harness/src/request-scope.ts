/**
 * What the code serving a request can reach from its `ServerCallContext`: the
 * request's logger and whether its client has hung up. Passed explicitly
 * rather than through async context: an AsyncLocalStorage puts a promise hook
 * on every await of the process, about a tenth of a command's CPU (profiled).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { STATE_HEADERS_KEY, type ServerCallContext } from '@a2a-js/sdk/server';
import type { Logger } from 'pino';
import { callOf, type A2ACall } from './serve/a2a-call/index.js';

/** A gRPC call, as far as the code serving it reads it (grpc-js's server call). */
export interface GrpcExchange {
  readonly cancelled: boolean;
  /** `address:port`, as grpc-js writes it. */
  getPeer(): string;
  once(event: 'cancelled', listener: () => void): unknown;
}

/** One of `res` (HTTP) and `grpc` (a gRPC call). */
interface RequestScope {
  log: () => Logger;
  res?: ServerResponse;
  grpc?: GrpcExchange;
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

/**
 * The same for a gRPC call, on the headers object the SDK's gRPC service
 * builds from the call's metadata and keeps in the context's state.
 */
export function enterGrpcScope(headers: object, call: GrpcExchange, makeLog: () => Logger): void {
  let made: Logger | undefined;
  const log = () => (made ??= makeLog());
  Object.defineProperty(headers, SCOPE, { value: { log, grpc: call } satisfies RequestScope });
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
    const { res, grpc } = scope;
    if (res?.closed || grpc?.cancelled) hangUp.abort();
    else if (res) res.once('close', () => hangUp.abort());
    else grpc?.once('cancelled', () => hangUp.abort());
  }
  return scope.hangUp.signal;
}

/** The HTTP request `context` belongs to; undefined outside one (and on gRPC). */
export function requestOf(context: ServerCallContext | undefined): IncomingMessage | undefined {
  return scopeOf(context)?.res?.req;
}

/** The response of the request `context` belongs to; undefined outside a request (and on gRPC). */
export function responseOf(context: ServerCallContext | undefined): ServerResponse | undefined {
  return scopeOf(context)?.res;
}

/** What the binding decided the request `context` belongs to asks for (`recordCall`). */
export function decidedCallOf(context: ServerCallContext | undefined): A2ACall | undefined {
  const scope = scopeOf(context);
  const carrier = scope?.res?.req ?? scope?.grpc;
  return carrier && callOf(carrier);
}

/** The address the client of the request `context` belongs to connects from; '' when unknown. */
export function callerAddress(context: ServerCallContext | undefined): string {
  const scope = scopeOf(context);
  if (scope?.res) return scope.res.req.socket.remoteAddress ?? '';
  // grpc-js's peer is `address:port` (IPv6 unbracketed): the port varies by connection.
  return scope?.grpc?.getPeer().replace(/:\d+$/, '') ?? '';
}
