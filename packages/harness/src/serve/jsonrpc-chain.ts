import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { jsonRpcGuard } from './a2a-guards.js';
import { jsonRpcEndpoint } from './a2a-routing.js';
import { requireApiKey } from './auth.js';
import { a2aCors } from './cors.js';
import type { Harness } from './harness.js';
import { legacyFinalFlag, legacyJsonRpcGuard } from './legacy-v03/index.js';
import { requestLogging } from './logging.js';

/**
 * The JSON-RPC binding's middleware, declared once. Both doors are built from
 * it: the Express app (`createApp`) and the lane that skips Express's router
 * (`jsonRpcLane`). Each door reads the body its own way, with the same limit
 * and refusals, between `beforeBody` and `afterBody`, and dispatches to the
 * SDK after `afterBody`. A middleware added here runs on both doors.
 */
export interface JsonRpcChain {
  /** What every request to the app passes first, whatever its path. */
  front: RequestHandler[];
  /** Before the body is read: CORS, the API key, the endpoint itself (POST, at the root). */
  beforeBody: RequestHandler[];
  /** After the body is parsed: the guards, then 0.3's fixes. */
  afterBody: RequestHandler[];
}

export function jsonRpcChain(harness: Pick<Harness, 'apiKeys'>, logger: Logger): JsonRpcChain {
  return {
    front: [requestLogging(logger)],
    beforeBody: [
      a2aCors,
      ...(harness.apiKeys ? [requireApiKey(harness.apiKeys, 'jsonrpc')] : []),
      jsonRpcEndpoint,
    ],
    afterBody: [jsonRpcGuard, legacyJsonRpcGuard, legacyFinalFlag],
  };
}
