import * as grpc from '@grpc/grpc-js';
import { UnauthenticatedUser, type ServerCallContextBuilder, type User } from '@a2a-js/sdk/server';
import type { GrpcServiceOptions } from '@a2a-js/sdk/server/grpc';
import type { Logger } from 'pino';
import { enterGrpcScope } from '../../request-scope.js';
import { grpcCallOf, recordCall } from '../a2a-call/index.js';
import type { ApiKeys } from '../api-keys.js';
import { bearerKeyOf, Principal, UNAUTHENTICATED_MESSAGE } from '../auth.js';

/** A call of the SDK's service: unary (with its callback) or server-streaming. */
type ServerCall =
  grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>;
type Method = (call: ServerCall, callback?: grpc.sendUnaryData<unknown>) => unknown;

export interface GrpcFrontOptions {
  apiKeys?: ApiKeys;
  logger: Logger;
  /** The harness's own context builder (it echoes the extension), run for every call. */
  contextBuilder: ServerCallContextBuilder;
}

/**
 * What the HTTP bindings' middleware does for them, done for the gRPC binding
 * before the SDK's service reads a call: which A2A operation it is, decided
 * once from its method path (`grpcCallOf`) and recorded for the guards; the
 * API key, from the `authorization` metadata as the card's bearer scheme says;
 * and the call's scope (its logger, its hang-up, its address), so that the
 * request handler behind serves it exactly as it serves HTTP. The handler's
 * own guards (limits, rate limits, ownership, retries) then apply unchanged.
 */
export class GrpcFront {
  /** The principal each call was let through as. */
  private readonly principals = new WeakMap<ServerCall, Principal>();
  /** The call each user object was built for: the context builder is given only the user. */
  private readonly callsOfUsers = new WeakMap<User, ServerCall>();
  /** Each call's request id, in its log lines. */
  private readonly requestIds = new WeakMap<ServerCall, string>();

  constructor(private readonly options: GrpcFrontOptions) {}

  /** The SDK's user builder: the principal let through, or a fresh anonymous user. */
  readonly userBuilder: GrpcServiceOptions['userBuilder'] = (call) => {
    const user = this.principals.get(call) ?? new UnauthenticatedUser();
    this.callsOfUsers.set(user, call);
    return Promise.resolve(user);
  };

  /** The SDK's context builder: the harness's, with the call's scope kept on its headers. */
  readonly contextBuilder: ServerCallContextBuilder = (options) => {
    const context = this.options.contextBuilder(options);
    const call = options.user && this.callsOfUsers.get(options.user);
    if (call) {
      const requestId = this.requestIds.get(call);
      enterGrpcScope(options.headers, call, () => this.options.logger.child({ requestId }));
    }
    return context;
  };

  /** The SDK's service implementation with every method behind this front. */
  guard<Service extends object>(service: Service): Service {
    const guarded: Record<string, Method> = {};
    for (const [name, method] of Object.entries(service) as [string, Method][]) {
      guarded[name] = (call, callback) => {
        const decided = grpcCallOf(call.getPath());
        if (decided) recordCall(call, decided);
        const done = this.logOnEnd(call);
        const answer: grpc.sendUnaryData<unknown> | undefined =
          callback &&
          ((error, value, trailer, flags) => {
            done(error?.code ?? grpc.status.OK);
            callback(error, value, trailer, flags);
          });
        if (!callback) call.once('error', (error: grpc.ServiceError) => done(error.code));
        if (!this.admitted(call)) {
          refuse(call, answer);
          return;
        }
        return method(call, answer);
      };
    }
    return guarded as Service;
  }

  /**
   * One line a call, as HTTP requests get: `grpc call completed` with its
   * status code, at error level for a server fault, `grpc call cancelled`
   * when the client left first. Returns what the call's end calls.
   */
  private logOnEnd(call: ServerCall): (code: grpc.status) => void {
    const { logger } = this.options;
    const requestId = crypto.randomUUID();
    this.requestIds.set(call, requestId);
    const started = performance.now();
    let ended = false;
    const end = (code: grpc.status | 'cancelled') => {
      if (ended) return;
      ended = true;
      const line = {
        requestId,
        grpc: { method: call.getPath(), code },
        responseTime: Math.round(performance.now() - started),
      };
      if (code === 'cancelled') logger.warn(line, 'grpc call cancelled');
      else if (SERVER_FAULTS.has(code)) logger.error(line, 'grpc call errored');
      else logger.info(line, 'grpc call completed');
    };
    call.once('cancelled', () => end('cancelled'));
    // A stream that ends without an error ends OK.
    if ('write' in call) call.once('finish', () => end(grpc.status.OK));
    return end;
  }

  /** Without keys every call is admitted; with them, a call with a valid key, as its principal. */
  private admitted(call: ServerCall): boolean {
    const { apiKeys } = this.options;
    if (!apiKeys) return true;
    const [authorization] = call.metadata.get('authorization');
    const key = bearerKeyOf(typeof authorization === 'string' ? authorization : undefined);
    const holder = key === undefined ? undefined : apiKeys.holderOf(key);
    if (!holder) return false;
    this.principals.set(call, new Principal(holder.principal, holder.digest));
    return true;
  }
}

/** Codes that say the server failed, not the request. */
const SERVER_FAULTS = new Set<grpc.status>([
  grpc.status.UNKNOWN,
  grpc.status.INTERNAL,
  grpc.status.DATA_LOSS,
]);

/** UNAUTHENTICATED, with the same message the HTTP bindings give: it does not say what was wrong. */
function refuse(call: ServerCall, callback: grpc.sendUnaryData<unknown> | undefined): void {
  const error: Partial<grpc.ServiceError> = {
    code: grpc.status.UNAUTHENTICATED,
    details: UNAUTHENTICATED_MESSAGE,
  };
  if (callback) callback(error, null);
  else call.emit('error', error);
}
