import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { commandsRoutes } from 'a2a-commands/express';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { JSONRPC_PATH, REST_PATH } from './agent-card.js';
import { principalUserBuilder, requireApiKey } from './auth.js';
import {
  jsonRpcErrors,
  jsonRpcGuard,
  jsonRpcNotFound,
  restErrors,
  restGuard,
  restNotFound,
} from './a2a-guards.js';
import { jsonRpcBody, restBody } from './body-limit.js';
import { LEGACY_HTTP_EXTENSION_HEADER, legacyV03Front } from './legacy-v03/index.js';
import type { Harness } from './harness.js';
import { COMPLETE_PATH } from './completion.js';
import { requestLogging } from './logging.js';
import { metricsRoute } from './metrics-route.js';
import { RateLimiter } from './rate-limits.js';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import { webUiRoutes } from './web-ui.js';

/**
 * CORS for the A2A routes, so that pages on other origins (the web chat
 * pointed at this agent from elsewhere) can read the card and talk A2A. The
 * card stays public; `A2A-Extensions` is exposed so such pages can see the
 * echo (SEMANTICS §6).
 */
const corsHeaders = cors({
  // ETag: the web chat re-reads the card with If-None-Match to follow its commands.
  exposedHeaders: [
    'A2A-Extensions',
    'A2A-Version',
    LEGACY_HTTP_EXTENSION_HEADER,
    'Retry-After',
    'ETag',
  ],
  maxAge: 600,
});

/** Only a request with an `Origin` is a browser's cross-origin one: the rest skip CORS (profiled at ~5% of a command). */
const a2aCors: RequestHandler = (req, res, next) => {
  if (req.headers.origin === undefined) next();
  else corsHeaders(req, res, next);
};

/**
 * The HTTP face of the harness: the card, JSON-RPC, HTTP+JSON (with SSE), a
 * health check, and the web chat at `/ui`. With API keys, only the card, the
 * health check and the web chat's files are public.
 */
export function createApp(
  harness: Harness,
  logger: Logger,
  observe?: { metrics: PrometheusMetrics; metricsPublic: boolean },
  // Shared with the JSON-RPC lane (serve.ts): one set of buckets a caller.
  rateLimiter = new RateLimiter(harness.limits, harness.registry),
): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express hashes every JSON body for an ETag, POST answers included (~1.5% of a
  // command, profiled); the card sets its own, and the web chat's files theirs.
  app.set('etag', false);
  app.use(requestLogging(logger));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', (_req, res, next) => {
    harness.readiness().then((readiness) => {
      res.status(readiness.ready ? 200 : 503).json(readiness);
    }, next);
  });
  if (observe) app.use(metricsRoute(observe.metrics, harness.apiKeys, observe.metricsPublic));
  app.use([`/${AGENT_CARD_PATH}`, JSONRPC_PATH, REST_PATH, COMPLETE_PATH], a2aCors);
  if (harness.apiKeys) {
    app.use(JSONRPC_PATH, requireApiKey(harness.apiKeys, 'jsonrpc'));
    app.use(REST_PATH, requireApiKey(harness.apiKeys, 'rest'));
    // The completion route sits behind the same keys (its spec's Security section).
    app.use(COMPLETE_PATH, requireApiKey(harness.apiKeys, 'rest'));
  }
  // Before the SDK's own parsers, which would stop at 100 kB: limits.bodyBytes applies.
  app.use(JSONRPC_PATH, jsonRpcBody(harness.limits.bodyBytes), jsonRpcGuard);
  app.use(REST_PATH, restBody(harness.limits.bodyBytes), restGuard);
  // A2A 0.3 beside 1.0: fixes in front of the SDK's compat layer (legacyCompat).
  app.use(legacyV03Front(harness.card));
  if (rateLimiter.active) {
    app.use(JSONRPC_PATH, rateLimiter.jsonRpc);
    app.use(REST_PATH, rateLimiter.rest);
  }
  app.use(
    commandsRoutes(harness, {
      legacyCompat: true,
      jsonRpcPath: JSONRPC_PATH,
      restPath: REST_PATH,
      userBuilder: principalUserBuilder,
    }),
  );
  app.use(JSONRPC_PATH, jsonRpcNotFound, jsonRpcErrors);
  app.use(REST_PATH, restNotFound, restErrors);
  app.use(webUiRoutes());
  return app;
}
