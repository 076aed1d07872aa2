import {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  SubscribeToTaskRequest,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  A2A_ERROR_CODE,
  A2AError,
  ContentTypeNotSupportedError,
  RequestMalformedError,
} from '@a2a-js/sdk/errors';
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import {
  callOf,
  isBindingRoot,
  jsonRpcCallOf,
  recordCall,
  sendsMessage,
  type A2AMethod,
} from './a2a-call/index.js';
import { messageShapeFault } from './message-shape.js';

/*
 * Requests the SDK's handlers answer badly, answered here instead: found by
 * the property tests in test/protocol-properties.test.ts.
 */

/** How deep a request body may nest; protobuf parsers stop at the same depth. */
export const MAX_JSON_DEPTH = 100;

/** Whether `value` nests arrays and objects more than `max` levels deep; no recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** JSON-RPC 2.0: an id is a string, a number (whole, here, as the SDK requires) or null. */
function isValidId(id: unknown): id is string | number | null {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How the SDK reads each method's params. It throws a TypeError on some wrong
 * types (a part that is null, an object where a string belongs) and answers
 * that as an internal error: -32603, or 500 on HTTP+JSON.
 */
const PARAMS_READERS: Record<A2AMethod, (params: unknown) => unknown> = {
  SendMessage: (params) => SendMessageRequest.fromJSON(params),
  SendStreamingMessage: (params) => SendMessageRequest.fromJSON(params),
  GetTask: (params) => GetTaskRequest.fromJSON(params),
  ListTasks: (params) => ListTasksRequest.fromJSON(params),
  CancelTask: (params) => CancelTaskRequest.fromJSON(params),
  SubscribeToTask: (params) => SubscribeToTaskRequest.fromJSON(params),
  GetExtendedAgentCard: (params) => GetExtendedAgentCardRequest.fromJSON(params ?? {}),
  CreateTaskPushNotificationConfig: (params) => TaskPushNotificationConfig.fromJSON(params),
  GetTaskPushNotificationConfig: (params) => GetTaskPushNotificationConfigRequest.fromJSON(params),
  ListTaskPushNotificationConfigs: (params) =>
    ListTaskPushNotificationConfigsRequest.fromJSON(params),
  DeleteTaskPushNotificationConfig: (params) =>
    DeleteTaskPushNotificationConfigRequest.fromJSON(params),
};

/** Whether the SDK can read `params` for `method` without throwing. */
function readable(read: (params: unknown) => unknown, params: unknown): boolean {
  try {
    read(params);
    return true;
  } catch {
    return false;
  }
}

function wrongTypes(what: string): RequestMalformedError {
  return new RequestMalformedError(`Invalid params for ${what}: a field has the wrong type.`);
}

function tooDeep(): RequestMalformedError {
  return new RequestMalformedError(
    `The request nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
  );
}

function rpcError(res: Response, id: string | number | null, code: number, message: string): void {
  res.status(200).json({ jsonrpc: '2.0', id, error: { code, message } });
}

/** What makes `body` no JSON-RPC 2.0 Request object (§4), or undefined when it is one. */
function envelopeFaultOf(body: unknown): string | undefined {
  if (!isPlainObject(body)) return 'the body must be a JSON object.';
  if (body.jsonrpc !== '2.0') return 'jsonrpc must be exactly "2.0".';
  if (typeof body.method !== 'string' || body.method === '')
    return 'method must be a non-empty string.';
  return undefined;
}

/**
 * Before the SDK's JSON-RPC handler: an invalid id would be echoed back as it
 * came (an object, a boolean), a deeply nested body overflows the stack inside
 * the SDK and the store, and params of the wrong types are answered as
 * internal errors. An id of 0 or "" is kept where the SDK would drop it.
 * Records which operation the request is (`callOf`), from its method name.
 */
export const jsonRpcGuard: RequestHandler = (req, res, next) => {
  const body: unknown = req.body;
  const id = isPlainObject(body) && 'id' in body ? body.id : null;
  if (!isValidId(id)) {
    rpcError(
      res,
      null,
      A2A_ERROR_CODE.INVALID_REQUEST,
      'Invalid Request: id must be a string, a whole number or null.',
    );
    return;
  }
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
    rpcError(res, id, A2A_ERROR_CODE.INVALID_PARAMS, tooDeep().message);
    return;
  }
  const envelopeFault = envelopeFaultOf(body);
  if (envelopeFault) {
    // JSON-RPC 2.0 §5.1: not a valid Request object is -32600; the SDK answers -32602.
    rpcError(res, id, A2A_ERROR_CODE.INVALID_REQUEST, `Invalid Request: ${envelopeFault}`);
    return;
  }
  const { method, params } = body as { method: string; params?: unknown };
  const call = jsonRpcCallOf(method);
  if (call) recordCall(req, call);
  // 0.3's calls are checked with 0.3's types (legacy-v03/guard.ts).
  if (call && !call.legacy && isPlainObject(params)) {
    const { tenant } = params;
    // The SDK hands a tenant of any type to the store, which cannot bind it.
    const tenantOk = tenant === undefined || typeof tenant === 'string';
    if (!tenantOk || !readable(PARAMS_READERS[call.method], params)) {
      rpcError(res, id, A2A_ERROR_CODE.INVALID_PARAMS, wrongTypes(method).message);
      return;
    }
    const shapeFault = sendsMessage(call) ? messageShapeFault(params.message) : undefined;
    if (shapeFault) {
      rpcError(res, id, A2A_ERROR_CODE.INVALID_PARAMS, `Invalid params: ${shapeFault}`);
      return;
    }
  }
  if (id === 0 || id === '') keepFalsyId(res, id);
  next();
};

/** The SDK answers errors raised outside its dispatch with `id: req.body.id || null`. */
function keepFalsyId(res: Response, id: 0 | ''): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) =>
    json(isPlainObject(body) && body.id === null && 'jsonrpc' in body ? { ...body, id } : body);
}

/** The SDK's HTTP+JSON error body (its toRestErrorBody). */
function restError(res: Response, status: number, statusName: string, error: Error): void {
  const details = error instanceof A2AError ? [error.toErrorInfo()] : [];
  res
    .status(status)
    .type('application/a2a+json')
    .json({ error: { code: status, status: statusName, message: error.message, details } });
}

/** The media types A2A 1.0's HTTP+JSON binding reads. */
const REST_MEDIA_TYPES = new Set(['application/json', 'application/a2a+json']);

/**
 * Before the body is read, after the call is decided: a body of another type
 * gets ContentTypeNotSupported with 415, as A2A 1.0's table says (the SDK
 * answers 400). 0.3's calls keep the SDK's own handling.
 */
export const restContentType: RequestHandler = (req, res, next) => {
  const type = req.headers['content-type'];
  const mediaType = type?.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType === undefined || REST_MEDIA_TYPES.has(mediaType) || callOf(req)?.legacy) {
    next();
    return;
  }
  restError(
    res,
    415,
    'INVALID_ARGUMENT',
    new ContentTypeNotSupportedError(
      `Unsupported Content-Type "${type}"; expected application/json or application/a2a+json.`,
    ),
  );
};

/**
 * Before the SDK's HTTP+JSON handler, after the call is decided (`decideRestCall`):
 * a deeply nested body overflows the stack, a body that is not an object breaks
 * its tenant routes, and a message of the wrong types is answered with 500.
 */
export const restGuard: RequestHandler = (req, res, next) => {
  const body: unknown = req.body;
  if (body === undefined) {
    next();
    return;
  }
  let refusal: RequestMalformedError | undefined;
  if (!isPlainObject(body)) {
    refusal = new RequestMalformedError('The request body must be a JSON object.');
  } else if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
    refusal = tooDeep();
  } else if (sendsMessage(callOf(req))) {
    if (!readable(PARAMS_READERS.SendMessage, body)) refusal = wrongTypes('the message');
    else {
      // 0.3's protobuf JSON also takes the message as `request`.
      const shapeFault = messageShapeFault(body.message) ?? messageShapeFault(body.request);
      if (shapeFault) refusal = new RequestMalformedError(`Invalid message: ${shapeFault}`);
    }
  }
  if (refusal) {
    restError(res, 400, 'INVALID_ARGUMENT', refusal);
    return;
  }
  next();
};

/** After the SDK's JSON-RPC handler, which serves only POST to its root: JSON, not Express's HTML page. */
export const jsonRpcNotFound: RequestHandler = (req, res) => {
  const atRoot = isBindingRoot(req.path);
  if (atRoot) res.setHeader('Allow', 'POST');
  res.status(atRoot ? 405 : 404).json({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: A2A_ERROR_CODE.INVALID_REQUEST,
      message: atRoot
        ? `JSON-RPC requests are POSTed; ${req.method} is not served here.`
        : `No JSON-RPC endpoint at this path; POST to ${req.baseUrl}.`,
    },
  });
};

/** After the SDK's HTTP+JSON handler: an operation it does not serve gets the protocol's 404 body. */
export const restNotFound: RequestHandler = (req, res) => {
  restError(
    res,
    404,
    'NOT_FOUND',
    new Error(`No A2A operation is served at ${req.method} on this path.`),
  );
};

/**
 * The status of an error Express or a middleware raised: 4xx when the request
 * was at fault. Other errors go to the request's log line (`requestLogging` reads `res.err`).
 */
function clientStatusOf(error: unknown, res: Response): number | undefined {
  const status = (error as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) return status;
  (res as unknown as { err?: unknown }).err = error;
  return undefined;
}

/** Last on the JSON-RPC path: an error no handler answered gets JSON, not Express's HTML page. */
export const jsonRpcErrors: ErrorRequestHandler = (error, _req, res, next) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  const status = clientStatusOf(error, res);
  res.status(status ?? 500).json({
    jsonrpc: '2.0',
    id: null,
    error: status
      ? { code: A2A_ERROR_CODE.INVALID_REQUEST, message: 'The request could not be read.' }
      : { code: A2A_ERROR_CODE.INTERNAL_ERROR, message: 'Internal error.' },
  });
};

/** Last on the HTTP+JSON path: a path that cannot be decoded (`%zz`) and the like get the protocol's body. */
export const restErrors: ErrorRequestHandler = (error, _req, res, next) => {
  if (res.headersSent) {
    next(error);
    return;
  }
  const status = clientStatusOf(error, res);
  if (status) {
    restError(
      res,
      status,
      'INVALID_ARGUMENT',
      new RequestMalformedError('The request could not be read.'),
    );
  } else {
    restError(res, 500, 'INTERNAL', new Error('Internal error.'));
  }
};
