import {
  A2AError,
  ContentTypeNotSupportedError,
  isRestError,
  RestContentTypeNotSupportedError,
  RestTaskNotCancelableError,
  TaskNotCancelableError,
} from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { decidedCallOf } from '../request-scope.js';
import { RateLimitedError } from './rate-limits.js';

/*
 * Protocol errors as a client reads them, fixed in front of the SDK: the HTTP
 * status A2A 1.0's table gives them, and task states in the version's own names.
 */

/**
 * The SDK answers both with 400 on HTTP+JSON; A2A 1.0's table says 409 and
 * 415. Its HTTP+JSON variants carry the status, and JSON-RPC reads them by
 * name, so one error serves every binding.
 */
function withSpecStatus(error: A2AError): A2AError {
  if (isRestError(error)) return error;
  const options = { message: error.message, cause: error };
  // By name, as the SDK matches its own errors.
  if (error.name === TaskNotCancelableError.name)
    return new RestTaskNotCancelableError({ ...options, statusCode: 409 });
  if (error.name === ContentTypeNotSupportedError.name)
    return new RestContentTypeNotSupportedError({ ...options, statusCode: 415 });
  return error;
}

const V1_STATE = /\bTASK_STATE_([A-Z_]+)\b/g;

/** `TASK_STATE_INPUT_REQUIRED` as 0.3 writes it: `input-required`. */
export function inLegacyStateNames(text: string): string {
  return text.replace(V1_STATE, (_, name: string) => name.toLowerCase().replace(/_/g, '-'));
}

/** google.rpc.Code's RESOURCE_EXHAUSTED: what gRPC answers a call over its caller's rate limit. */
const GRPC_RESOURCE_EXHAUSTED = 8;

/**
 * An error the SDK's gRPC service answers with the status it carries (its
 * `isGrpcError`): the SDK knows the status of A2A's own errors only, and
 * answers any other UNKNOWN.
 */
class GrpcStatusError extends A2AError {
  readonly transport = 'grpc';
  constructor(
    readonly status: number,
    cause: A2AError,
  ) {
    super({ message: cause.message, cause });
  }
}

/** The error `error` is answered as, for the request `context` belongs to. */
export function answeredError(error: A2AError, context: ServerCallContext | undefined): A2AError {
  const call = decidedCallOf(context);
  if (call?.binding === 'grpc') {
    return error instanceof RateLimitedError
      ? new GrpcStatusError(GRPC_RESOURCE_EXHAUSTED, error)
      : error;
  }
  const answered = withSpecStatus(error);
  if (call?.legacy && V1_STATE.test(answered.message)) {
    V1_STATE.lastIndex = 0;
    answered.message = inLegacyStateNames(answered.message);
  }
  return answered;
}
