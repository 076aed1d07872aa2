import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import { callOf } from './a2a-call/index.js';
import type { Refusal } from './token-buckets.js';

/**
 * JSON-RPC has no standard code for this. -32029 is in JSON-RPC's
 * implementation-defined server range (-32000 to -32099), clear of the codes
 * A2A assigns (-32001 to -32009) and of the harness's -32000 (unauthenticated).
 */
export const RATE_LIMITED_CODE = -32029;

export function rateLimitMessage(retryAfterSeconds: number): string {
  return `Too many requests: this caller is over its rate limit; retry after ${retryAfterSeconds} s.`;
}

/**
 * The 429 a rate-limited call gets, in its binding's shape. The refusal is
 * decided inside the request handler, once the command path knows what runs,
 * and the SDK then writes the error answer itself; so this one response is
 * told to write the 429 instead, whatever status and body the SDK gives it.
 * No other response is touched.
 */
export function answerRateLimited(req: IncomingMessage, refusal: Refusal): void {
  const request = req as Request;
  const res = request.res as Response | undefined;
  if (!res || res.headersSent) return;
  const seconds = refusal.retryAfterSeconds;
  const body =
    callOf(request)?.binding === 'rest'
      ? restBody(seconds)
      : { jsonrpc: '2.0', id: jsonRpcIdOf(request), error: jsonRpcError(seconds) };
  const json = res.json.bind(res);
  res.statusCode = 429;
  res.setHeader('Retry-After', String(seconds));
  res.status = () => res;
  res.json = () => json(body);
}

function jsonRpcIdOf(req: Request): unknown {
  const body = req.body as { id?: unknown } | undefined;
  return body?.id ?? null;
}

function jsonRpcError(seconds: number) {
  return {
    code: RATE_LIMITED_CODE,
    message: rateLimitMessage(seconds),
    data: { retryAfterSeconds: seconds },
  };
}

/** The SDK's HTTP+JSON error body, with google.rpc's RetryInfo as its detail. */
function restBody(seconds: number) {
  return {
    error: {
      code: 429,
      status: 'RESOURCE_EXHAUSTED',
      message: rateLimitMessage(seconds),
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.RetryInfo',
          retryDelay: `${seconds}s`,
        },
      ],
    },
  };
}
