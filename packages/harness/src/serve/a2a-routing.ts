import type { RequestHandler } from 'express';
import { isBindingRoot, recordCall, restCallOf } from './a2a-call/index.js';
import { jsonRpcNotFound, restNotFound } from './a2a-guards.js';
import { requestsLegacyVersion } from './legacy-v03/version.js';

/*
 * The one place a request's path is read. Each binding decides here which A2A
 * operation the request is, records it for the guards (`callOf`), and rewrites
 * the path to the one spelling the SDK's router matches exactly: the SDK then
 * serves only what was decided, and a guard can never disagree with it about
 * what was asked. A path that names no operation is answered here and never
 * reaches the SDK.
 */

function splitQuery(url: string): [path: string, query: string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/** HTTP+JSON, mounted at its binding's path: the operation from the method and the path. */
export const decideRestCall: RequestHandler = (req, res, next) => {
  const [path, query] = splitQuery(req.url);
  const decision = restCallOf(req.method, path, requestsLegacyVersion(req));
  if (!decision) {
    restNotFound(req, res, next);
    return;
  }
  recordCall(req, decision.call);
  req.url = decision.canonicalPath + query;
  next();
};

/**
 * JSON-RPC, mounted at its binding's path: one endpoint, POSTed to. Which
 * operation is read from the body's method, once the body is parsed (`jsonRpcGuard`).
 */
export const jsonRpcEndpoint: RequestHandler = (req, res, next) => {
  // Nearly every call, and every call of the lane: nothing to decide.
  if (req.method === 'POST' && req.url === '/') {
    next();
    return;
  }
  const [path, query] = splitQuery(req.url);
  if (req.method !== 'POST' || !isBindingRoot(path)) {
    jsonRpcNotFound(req, res, next);
    return;
  }
  if (path !== '/') req.url = `/${query}`;
  next();
};
