import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { commandsRoutes } from 'a2a-commands/express';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { JSONRPC_PATH, REST_PATH } from './agent-card.js';
import { principalUserBuilder, requireApiKey } from './auth.js';
import {
  jsonRpcErrors,
  jsonRpcNotFound,
  restContentType,
  restErrors,
  restGuard,
  restNotFound,
} from './a2a-guards.js';
import { decideRestCall } from './a2a-routing.js';
import { completionBodyLimit, jsonRpcBody, restBody } from './body-limit.js';
import { a2aCors } from './cors.js';
import { legacyV03Front } from './legacy-v03/index.js';
import type { Harness } from './harness.js';
import { COMPLETE_PATH } from './completion.js';
import { jsonRpcChain, type JsonRpcChain } from './jsonrpc-chain.js';
import { metricsRoute, type MetricsAccess } from './metrics-route.js';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import { webUiRoutes, type WebUiOptions } from './web-ui.js';
import { ownErrors, ownNotFound } from './own-refusals.js';

export const LEGACY_CARD_PATH = '/.well-known/agent.json';

/**
 * The HTTP face of the harness: the card, JSON-RPC, HTTP+JSON (with SSE), a
 * health check, and the web chat at `/ui`. With API keys, only the card, the
 * health check and the web chat's files are public. JSON-RPC's middleware is
 * `chain`, the declaration the JSON-RPC lane is built from as well.
 */
export function createApp(
  harness: Harness,
  logger: Logger,
  observe?: { metrics: PrometheusMetrics; access: MetricsAccess },
  chain: JsonRpcChain = jsonRpcChain(harness, logger),
  webUi: WebUiOptions = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express hashes every JSON body for an ETag, POST answers included (~1.5% of a
  // command, profiled); the card sets its own, and the web chat's files theirs.
  app.set('etag', false);
  app.use(...chain.front);
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/readyz', (_req, res, next) => {
    harness.readiness().then((readiness) => {
      res.status(readiness.ready ? 200 : 503).json(readiness);
    }, next);
  });
  if (observe) app.use(metricsRoute(observe.metrics, observe.access));
  // A2A 0.2's card path, still read by some clients (`@ag-ui/a2a`): the same card.
  app.all(LEGACY_CARD_PATH, (req, _res, next) => {
    const query = req.url.indexOf('?');
    req.url = `/${AGENT_CARD_PATH}${query < 0 ? '' : req.url.slice(query)}`;
    next();
  });
  // Before the SDK's own parsers, which would stop at 100 kB: limits.bodyBytes applies.
  app.use(
    JSONRPC_PATH,
    ...chain.beforeBody,
    ...jsonRpcBody(harness.limits.bodyBytes),
    ...chain.afterBody,
  );
  app.use([`/${AGENT_CARD_PATH}`, REST_PATH, COMPLETE_PATH], a2aCors);
  if (harness.apiKeys) {
    app.use(REST_PATH, requireApiKey(harness.apiKeys, 'rest'));
    // The completion route sits behind the same keys (its spec's Security section).
    app.use(COMPLETE_PATH, requireApiKey(harness.apiKeys, 'completion'));
  }
  app.use(COMPLETE_PATH, completionBodyLimit());
  app.use(
    REST_PATH,
    decideRestCall,
    restContentType,
    ...restBody(harness.limits.bodyBytes),
    restGuard,
  );
  // A2A 0.3 beside 1.0: fixes in front of the SDK's compat layer (legacyCompat).
  app.use(legacyV03Front(harness.card));
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
  app.use(webUiRoutes(webUi));
  app.use(ownNotFound, ownErrors(logger));
  return app;
}
