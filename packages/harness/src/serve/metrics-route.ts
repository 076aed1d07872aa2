import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { PrometheusMetrics } from '../metrics/prometheus.js';
import type { ApiKeys } from './api-keys.js';
import { bearerToken } from './auth.js';
import { ownRefusal } from './own-refusals.js';

export const METRICS_PATH = '/metrics';

/** Who may read `/metrics`. */
export interface MetricsAccess {
  /** `--metrics-public`: anyone who can reach the port (a scraper on a private network). */
  public: boolean;
  /** The metrics credential (`--metrics-token`), sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The agent's API keys, when it has them: then `/metrics` is never open by default. */
  apiKeys?: ApiKeys;
}

const REFUSAL =
  'Unauthenticated: /metrics needs the metrics token (--metrics-token or HARNESS_METRICS_TOKEN), sent as "Authorization: Bearer <token>". API keys do not read it.';

const digestOf = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * The counters cover every caller, so a principal's API key does not read
 * them: only the metrics token does, or anyone with `--metrics-public`. An
 * agent without API keys and without a token is open, `/metrics` included.
 */
function metricsGate(access: MetricsAccess): RequestHandler | undefined {
  if (access.public) return undefined;
  if (access.token === undefined && !access.apiKeys) return undefined;
  const wanted = access.token === undefined ? undefined : digestOf(access.token);
  return (req, res, next) => {
    const given = bearerToken(req);
    if (wanted && given !== undefined && timingSafeEqual(digestOf(given), wanted)) {
      next();
      return;
    }
    res
      .status(401)
      .setHeader('WWW-Authenticate', 'Bearer realm="a2a-harness metrics"')
      .json(ownRefusal('unauthenticated', REFUSAL));
  };
}

/** `GET /metrics`: Prometheus text, behind its own credential (`metricsGate`). */
export function metricsRoute(metrics: PrometheusMetrics, access: MetricsAccess): Router {
  const router = Router();
  const gate = metricsGate(access);
  if (gate) router.use(METRICS_PATH, gate);
  router.get(METRICS_PATH, (_req, res, next) => {
    metrics.text().then((text) => {
      res.setHeader('Content-Type', metrics.contentType);
      res.send(text);
    }, next);
  });
  return router;
}
