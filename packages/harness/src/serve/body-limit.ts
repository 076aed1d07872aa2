import {
  A2A_ERROR_CODE,
  ContentTypeNotSupportedError,
  RequestMalformedError,
  type A2AError,
} from '@a2a-js/sdk/errors';
import type { IncomingMessage } from 'node:http';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { closeAfterResponse } from './connections.js';
import { limitWords } from '../config/limit-words.js';

/*
 * The SDK's handlers parse bodies with `express.json()` and its fixed 100 kB
 * limit. These parsers run first, with the configured limit and otherwise the
 * SDK's own settings, so the SDK's parser finds the body read and skips. Their
 * errors get the bodies the SDK gives (malformed JSON) or would give (the
 * rest, which the SDK leaves to Express's HTML error page).
 */

const JSON_TYPE = 'application/json';
const A2A_JSON_TYPE = 'application/a2a+json';

/**
 * What body-parser's errors carry: an HTTP status, and mostly a `type` such as
 * `entity.too.large` (a body that does not inflate has none).
 */
interface BodyParserError {
  status: number;
  type?: string;
  message: string;
}

/** An error of the body parser just before: a 4xx status says the request was at fault. */
function isBodyParserError(error: unknown): error is BodyParserError {
  if (!(error instanceof Error)) return false;
  const { status } = error as Partial<BodyParserError>;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function isMalformedJson(error: unknown): boolean {
  return error instanceof SyntaxError && 'body' in error;
}

function tooLargeMessage(bodyBytes: number): string {
  return limitWords.bodyBytes(bodyBytes);
}

/** The protocol error for a body that could not be read, other than malformed JSON. */
function protocolErrorOf(error: BodyParserError, bodyBytes: number): A2AError {
  if (error.type === 'entity.too.large')
    return new RequestMalformedError(tooLargeMessage(bodyBytes));
  if (error.status === 415) return new ContentTypeNotSupportedError(error.message);
  if (error.type === undefined)
    return new RequestMalformedError('The request body could not be decoded.');
  return new RequestMalformedError(error.message);
}

/** Whether the request declares a body longer than `bodyBytes`, before a byte of it is read. */
function declaredOver(req: IncomingMessage, bodyBytes: number): boolean {
  const declared = Number(req.headers['content-length']);
  // bodyBytes counts the body after decoding: only an unencoded length says enough.
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  return encoding === 'identity' && Number.isFinite(declared) && declared > bodyBytes;
}

/**
 * A body whose declared length is over the limit is refused before a byte of
 * it is read: body-parser answers only once the whole body has arrived, so a
 * client trickling a large body held the connection.
 */
function declaredTooLarge(bodyBytes: number): RequestHandler {
  return (req, _res, next) => {
    if (declaredOver(req, bodyBytes)) {
      next(
        Object.assign(new Error('request entity too large'), {
          status: 413,
          type: 'entity.too.large',
        }),
      );
      return;
    }
    next();
  };
}

/** The completion route's body limit: the library's own default for it. */
export const COMPLETION_BODY_BYTES = 16 * 1024;

/**
 * In front of the completion route, whose parser reads a body to its end
 * before refusing it: a declared length over the limit is refused at once,
 * in the completion spec's error shape, and the connection ends as for the
 * A2A bindings' 413.
 */
export function completionBodyLimit(bodyBytes = COMPLETION_BODY_BYTES): RequestHandler {
  return (req, res, next) => {
    if (!declaredOver(req, bodyBytes)) {
      next();
      return;
    }
    closeAfterResponse(req, res);
    res.status(413).json({
      error: {
        code: 'invalid-request',
        message: `The completion request is larger than ${bodyBytes} bytes.`,
      },
    });
  };
}

/** JSON-RPC's body parser: the SDK's (strict, `application/json`) with `bodyBytes` as its limit. */
export function jsonRpcBody(
  bodyBytes: number,
): [RequestHandler, RequestHandler, ErrorRequestHandler] {
  const onError: ErrorRequestHandler = (error, req, res, next) => {
    if (isMalformedJson(error)) {
      // As the SDK's jsonErrorHandler answers it.
      res.status(200).json({
        jsonrpc: '2.0',
        id: null,
        error: { code: A2A_ERROR_CODE.PARSE_ERROR, message: 'Invalid JSON payload.' },
      });
      return;
    }
    if (!isBodyParserError(error)) {
      next(error);
      return;
    }
    const refusal = protocolErrorOf(error, bodyBytes);
    if (error.status === 413) closeAfterResponse(req, res);
    const code =
      refusal instanceof ContentTypeNotSupportedError
        ? A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED
        : A2A_ERROR_CODE.INVALID_REQUEST;
    // The id is in the body that was not read.
    res
      .status(error.status)
      .json({ jsonrpc: '2.0', id: null, error: { code, message: refusal.message } });
  };
  return [declaredTooLarge(bodyBytes), express.json({ limit: bodyBytes }), onError];
}

/** HTTP+JSON's body parser: the SDK's (lenient, JSON and A2A JSON) with `bodyBytes` as its limit. */
export function restBody(bodyBytes: number): [RequestHandler, RequestHandler, ErrorRequestHandler] {
  const onError: ErrorRequestHandler = (error, req, res, next) => {
    let status: number;
    let refusal: A2AError;
    if (isMalformedJson(error)) {
      // As the SDK's restErrorHandler answers it.
      status = 400;
      refusal = new RequestMalformedError('Invalid JSON payload.');
    } else if (isBodyParserError(error)) {
      status = error.status;
      refusal = protocolErrorOf(error, bodyBytes);
      if (status === 413) closeAfterResponse(req, res);
    } else {
      next(error);
      return;
    }
    // The SDK's error body (its toRestErrorBody); both errors map to INVALID_ARGUMENT.
    res
      .status(status)
      .type(A2A_JSON_TYPE)
      .json({
        error: {
          code: status,
          status: 'INVALID_ARGUMENT',
          message: refusal.message,
          details: [refusal.toErrorInfo()],
        },
      });
  };
  return [
    declaredTooLarge(bodyBytes),
    express.json({ limit: bodyBytes, type: [JSON_TYPE, A2A_JSON_TYPE], strict: false }),
    onError,
  ];
}
