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
  private nextCallId = 1;

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
      const callId = `grpc-${this.nextCallId++}`;
      enterGrpcScope(options.headers, call, () =>
        this.options.logger.child({ requestId: callId, grpc: call.getPath() }),
      );
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
        if (!this.admitted(call)) {
          refuse(call, callback);
          return;
        }
        return method(call, callback);
      };
    }
    return guarded as Service;
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

/** UNAUTHENTICATED, with the same message the HTTP bindings give: it does not say what was wrong. */
function refuse(call: ServerCall, callback: grpc.sendUnaryData<unknown> | undefined): void {
  const error: Partial<grpc.ServiceError> = {
    code: grpc.status.UNAUTHENTICATED,
    details: UNAUTHENTICATED_MESSAGE,
  };
  if (callback) callback(error, null);
  else call.emit('error', error);
}
