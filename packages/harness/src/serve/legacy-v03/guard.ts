import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { Ajv, type ValidateFunction } from 'ajv';
import type { RequestHandler } from 'express';
import { callOf, type A2AMethod } from '../a2a-call/index.js';

/*
 * Before the SDK's 0.3 JSON-RPC handler. Its translation to 1.0 trusts the
 * types of what it reads: a file part without `file`, or a number where an id
 * belongs, ends as -32603 with a JavaScript error message, and a text part
 * whose text is a number is stored as it came. So the params of the 0.3
 * methods that reach tasks are checked here first, with the 0.3 types.
 */

const string = { type: 'string' };
const stringList = { type: 'array', items: string };
const object = { type: 'object' };
const wholeNumber = { type: 'integer', minimum: 0 };

const file = {
  type: 'object',
  properties: { bytes: string, uri: string, name: string, mimeType: string },
  oneOf: [{ required: ['bytes'] }, { required: ['uri'] }],
};

const part = {
  type: 'object',
  required: ['kind'],
  properties: { kind: { enum: ['text', 'file', 'data'] }, metadata: object },
  allOf: [
    {
      if: { properties: { kind: { const: 'text' } } },
      then: { required: ['text'], properties: { text: string } },
    },
    {
      if: { properties: { kind: { const: 'file' } } },
      then: { required: ['file'], properties: { file } },
    },
    {
      if: { properties: { kind: { const: 'data' } } },
      then: { required: ['data'], properties: { data: object } },
    },
  ],
};

const message = {
  type: 'object',
  required: ['messageId', 'role', 'parts'],
  properties: {
    kind: { const: 'message' },
    messageId: string,
    role: { enum: ['user', 'agent'] },
    parts: { type: 'array', items: part },
    taskId: string,
    contextId: string,
    metadata: object,
    extensions: stringList,
    referenceTaskIds: stringList,
  },
};

const sendParams = {
  type: 'object',
  required: ['message'],
  properties: {
    message,
    configuration: {
      type: 'object',
      properties: {
        blocking: { type: 'boolean' },
        historyLength: wholeNumber,
        acceptedOutputModes: stringList,
        pushNotificationConfig: object,
      },
    },
    metadata: object,
  },
};

const taskParams = {
  type: 'object',
  required: ['id'],
  properties: { id: string, historyLength: wholeNumber, metadata: object },
};

type ParamsValidators = Partial<Record<A2AMethod, ValidateFunction>>;
let params: ParamsValidators | undefined;

/**
 * By operation: `message/send` is SendMessage, `tasks/resubscribe`
 * SubscribeToTask, and so on. Compiled on the first 0.3 call: most servers
 * never see one, and compiling was a twentieth of a start.
 */
function paramsValidators(): ParamsValidators {
  if (params) return params;
  const ajv = new Ajv({ allErrors: false });
  const send = ajv.compile(sendParams);
  const task = ajv.compile(taskParams);
  params = {
    SendMessage: send,
    SendStreamingMessage: send,
    GetTask: task,
    CancelTask: task,
    SubscribeToTask: task,
  };
  return params;
}

/** `/message/parts/0/text must be string`: where the params went wrong, for the caller. */
function firstError(validate: ValidateFunction): string {
  const [error] = validate.errors ?? [];
  if (!error) return 'invalid params';
  return `params${error.instancePath.replace(/\//g, '.')} ${error.message ?? 'is invalid'}`;
}

/**
 * Checks the params of a call made in 0.3's method names (-32602 with the first
 * fault when wrong), and gives `message/send` 0.3's default of `blocking`.
 * After `jsonRpcGuard`, which decided the call.
 */
export const legacyJsonRpcGuard: RequestHandler = (req, res, next) => {
  const call = callOf(req);
  const validate = call?.legacy ? paramsValidators()[call.method] : undefined;
  if (!validate) {
    next();
    return;
  }
  const body = req.body as { id?: unknown; method?: unknown; params?: unknown };
  if (!validate(body.params)) {
    res.status(200).json({
      jsonrpc: '2.0',
      id: body.id ?? null,
      error: {
        code: A2A_ERROR_CODE.INVALID_PARAMS,
        message: `Invalid params for ${body.method}: ${firstError(validate)}.`,
      },
    });
    return;
  }
  const configuration = (body.params as { configuration?: { blocking?: boolean } }).configuration;
  // 0.3 servers wait for the answer unless told `blocking: false`; the SDK's
  // translation waits only when `configuration` is absent altogether.
  if (configuration && configuration.blocking === undefined) configuration.blocking = true;
  next();
};
