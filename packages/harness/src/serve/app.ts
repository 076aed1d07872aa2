import { commandsRoutes } from 'a2a-commands/express';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { JSONRPC_PATH, REST_PATH } from './agent-card.js';
import type { Harness } from './harness.js';
import { requestLogging } from './logging.js';

/** The HTTP face of the harness: the card, JSON-RPC, HTTP+JSON (with SSE), and a health check. */
export function createApp(harness: Harness, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogging(logger));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.use(commandsRoutes(harness, { jsonRpcPath: JSONRPC_PATH, restPath: REST_PATH }));
  return app;
}
