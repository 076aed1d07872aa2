import { Router } from 'express';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import type { ApiKeys } from './api-keys.js';
import { requireApiKey } from './auth.js';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics`: Prometheus text. With API keys it needs one, as every call
 * but the card does, unless the operator made it public (`--metrics-public`)
 * for a scraper that cannot send a bearer token.
 */
export function metricsRoute(
  metrics: PrometheusMetrics,
  apiKeys: ApiKeys | undefined,
  isPublic: boolean,
): Router {
  const router = Router();
  if (apiKeys && !isPublic) router.use(METRICS_PATH, requireApiKey(apiKeys, 'rest'));
  router.get(METRICS_PATH, (_req, res, next) => {
    metrics.text().then((text) => {
      res.setHeader('Content-Type', metrics.contentType);
      res.send(text);
    }, next);
  });
  return router;
}
