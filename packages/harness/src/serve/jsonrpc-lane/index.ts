import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { jsonRpcHandler } from '@a2a-js/sdk/server/express';
import type { ErrorRequestHandler, Express, Request, Response } from 'express';
import type { Logger } from 'pino';
import { JSONRPC_PATH } from '../agent-card.js';
import { jsonRpcErrors, jsonRpcGuard, jsonRpcNotFound } from '../a2a-guards.js';
import { principalUserBuilder, requireApiKey } from '../auth.js';
import { jsonRpcBody } from '../body-limit.js';
import type { Harness } from '../harness.js';
import { requestLogging } from '../logging.js';
import type { RateLimiter } from '../rate-limits.js';
import { laneServes } from './admits.js';
import { STREAMING_METHODS, transportCall } from './call-transport.js';
import { readJsonBody } from './read-body.js';

export { laneServes } from './admits.js';

export interface JsonRpcLaneOptions {
  harness: Pick<Harness, 'apiKeys' | 'limits' | 'requestHandler' | 'contextBuilder'>;
  logger: Logger;
  /** The app's own: one set of buckets, whichever way a call comes in. */
  rateLimiter: RateLimiter;
  /** `createApp`'s app: it answers every request the lane does not take. */
  app: Express;
}

type Next = (error?: unknown) => void;
type Step = (req: Request, res: Response, next: Next) => unknown;

const passOn: Step = (_req, _res, next) => next();

/**
 * A2A 1.0 JSON-RPC calls served without Express's router (its
 * per-layer routing and body parsing were about a sixth of a command's CPU,
 * profiled). The lane runs the very middleware Express runs for such a call,
 * in the same order, as one flat chain: the request log line, the API-key
 * check, the body limit (the same refusals), `jsonRpcGuard`, the rate limits,
 * then the SDK's JSON-RPC transport (streaming methods through the SDK's own
 * route). Start-up gating stays in front of it (`startUpSwitch`). What the
 * lane does not admit (`laneServes`) goes to Express whole.
 */
export function jsonRpcLane(options: JsonRpcLaneOptions): RequestListener {
  const { harness, app } = options;
  const bodyBytes = harness.limits.bodyBytes;
  const [, , bodyRefusal] = jsonRpcBody(bodyBytes);
  const readBody: Step = (req, res, next) =>
    readJsonBody(req, (error, body) => {
      if (error) {
        try {
          bodyRefusal(error, req, res, next);
        } catch (thrown) {
          next(thrown);
        }
        return;
      }
      req.body = body;
      next();
    });
  const parts = {
    requestHandler: harness.requestHandler,
    contextBuilder: harness.contextBuilder,
    userBuilder: principalUserBuilder,
  };
  const callTransport = transportCall(parts);
  const sdkRoute = jsonRpcHandler({ ...parts, legacyCompat: { enabled: true } });
  const dispatch: Step = (req, res, next) => {
    const { method } = req.body as { method: string };
    if (!STREAMING_METHODS.has(method)) return callTransport(req, res);
    // As Express hands it over, mounted at the JSON-RPC path.
    req.originalUrl = req.url;
    req.baseUrl = JSONRPC_PATH;
    req.url = '/';
    sdkRoute(req, res, (error?: unknown) => {
      if (error !== undefined && error !== 'route' && error !== 'router') next(error);
      else notFound(req, res, next);
    });
  };
  const steps: Step[] = [
    requestLogging(options.logger),
    harness.apiKeys ? requireApiKey(harness.apiKeys, 'jsonrpc') : passOn,
    readBody,
    jsonRpcGuard,
    options.rateLimiter.active ? options.rateLimiter.jsonRpc : passOn,
    dispatch,
  ];
  const notFound = jsonRpcNotFound as Step;
  const lastResort = lastResortFor(app);
  return (req, res) => {
    if (!laneServes(req, bodyBytes)) {
      app(req, res);
      return;
    }
    const [request, response] = asExpress(app, req, res);
    runSteps(steps, request, response, (error) => lastResort(error, request, response));
  };
}

/** What `app.handle` does before routing: Express's request and response methods on Node's objects. */
function asExpress(app: Express, req: IncomingMessage, res: ServerResponse): [Request, Response] {
  const request = Object.setPrototypeOf(req, app.request) as Request;
  const response = Object.setPrototypeOf(res, app.response) as Response;
  request.res = response;
  response.req = request;
  response.locals ??= Object.create(null) as Response['locals'];
  return [request, response];
}

/**
 * Each step in turn, as Express's router calls middleware: a step that throws
 * or rejects passes its error on, and an error skips to `onError`.
 */
function runSteps(steps: Step[], req: Request, res: Response, onError: Next): void {
  let at = 0;
  const next: Next = (error) => {
    if (error !== undefined) {
      onError(error);
      return;
    }
    const step = steps[at++];
    if (!step) return;
    try {
      const result = step(req, res, next);
      if (result instanceof Promise) result.catch(onError);
    } catch (thrown) {
      onError(thrown);
    }
  };
  next();
}

/** Errors end as on Express's JSON-RPC path: `jsonRpcErrors`, then Express's final handler. */
function lastResortFor(app: Express): (error: unknown, req: Request, res: Response) => void {
  const answerError = jsonRpcErrors as ErrorRequestHandler;
  return (error, req, res) => {
    answerError(error, req, res, (unanswered?: unknown) => {
      // finalhandler: report, and drop a connection whose answer has begun.
      if (app.get('env') !== 'test') console.error(unanswered);
      if (res.headersSent) req.socket.destroy();
    });
  };
}
