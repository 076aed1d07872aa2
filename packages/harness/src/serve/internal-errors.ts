import { ServerCallContext, type A2ARequestHandler } from '@a2a-js/sdk/server';
import { A2AError } from '@a2a-js/sdk/errors';
import type { Logger } from 'pino';
import { requestLog } from '../request-scope.js';
import { answeredError } from './answered-errors.js';
import {
  DATABASE_UNREACHABLE_MESSAGE,
  isDatabaseUnreachable,
  isStorageFull,
  STORAGE_FULL_MESSAGE,
} from '../store/index.js';

/**
 * What a client is told when the server fails (-32603 on JSON-RPC, 500 INTERNAL
 * on HTTP+JSON); docs/security.md. The details go to the log, with the request
 * id the response carries in `X-Request-Id`.
 */
export const INTERNAL_ERROR_MESSAGE =
  'Internal error: the server could not complete this request. It was logged; quote the X-Request-Id response header when reporting it.';

/** A protocol error is the client's to read; anything else is the server's own business. */
function isInternal(error: unknown): boolean {
  return !(error instanceof A2AError);
}

function hide(
  error: unknown,
  method: string,
  log: () => Logger,
  context: ServerCallContext | undefined,
): unknown {
  if (!isInternal(error)) return answeredError(error as A2AError, context);
  // An outage is not a bug: the client is told to retry, and the log says less.
  if (isDatabaseUnreachable(error)) {
    log().warn({ err: (error as Error).message, method }, 'database unreachable');
    return new Error(DATABASE_UNREACHABLE_MESSAGE);
  }
  // Nothing the client did wrong, and nothing it can fix: an operator must make room.
  if (isStorageFull(error)) {
    log().error({ err: (error as Error).message, method }, 'storage full: the write was refused');
    return new Error(STORAGE_FULL_MESSAGE);
  }
  log().error({ err: error, method }, 'internal error answered as such');
  return new Error(INTERNAL_ERROR_MESSAGE);
}

async function* hideInStream<T>(
  stream: AsyncGenerator<T, void, undefined>,
  method: string,
  log: () => Logger,
  context: ServerCallContext | undefined,
): AsyncGenerator<T, void, undefined> {
  try {
    yield* stream;
  } catch (error) {
    throw hide(error, method, log, context);
  }
}

/**
 * An error that is not a protocol error ("driver has already been destroyed"
 * during a shutdown) would reach clients verbatim, and unlogged. Every method
 * of `inner` is wrapped: such errors are logged, and the client gets
 * {@link INTERNAL_ERROR_MESSAGE}; protocol errors go on as a client should
 * read them (`answeredError`).
 */
export function hidingInternalErrors(inner: A2ARequestHandler, logger: Logger): A2ARequestHandler {
  // One wrapper a method, made on first use.
  const wrappers = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  const wrap = (
    target: A2ARequestHandler,
    method: string,
    value: (...args: unknown[]) => unknown,
  ) => {
    return (...args: unknown[]) => {
      // Logged with the request's id: the call context is among the arguments.
      const context = args.find((arg) => arg instanceof ServerCallContext) as
        ServerCallContext | undefined;
      // The request's logger is made only if there is an error to log.
      const log = () => requestLog(context, logger);
      let result: unknown;
      try {
        result = value.apply(target, args);
      } catch (error) {
        throw hide(error, method, log, context);
      }
      if (result instanceof Promise)
        return result.catch((error: unknown) => Promise.reject(hide(error, method, log, context)));
      if (isAsyncGenerator(result)) return hideInStream(result, method, log, context);
      return result;
    };
  };
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      let wrapper = wrappers.get(property);
      if (!wrapper) {
        wrapper = wrap(target, String(property), value as (...args: unknown[]) => unknown);
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncGenerator).next === 'function' &&
    typeof (value as AsyncGenerator)[Symbol.asyncIterator] === 'function'
  );
}
