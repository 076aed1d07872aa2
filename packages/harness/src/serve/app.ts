import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { commandsRoutes } from 'a2a-commands/express';
import cors from 'cors';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import { JSONRPC_PATH, REST_PATH } from './agent-card.js';
import type { Harness } from './harness.js';
import { requestLogging } from './logging.js';
import { webUiRoutes } from './web-ui.js';

/**
 * CORS for the A2A routes, so that pages on other origins (the web chat
 * pointed at this agent from elsewhere) can read the card and talk A2A. The
 * card stays public; `A2A-Extensions` is exposed so such pages can see the
 * echo (SEMANTICS §6).
 */
const a2aCors = cors({
  exposedHeaders: ['A2A-Extensions', 'A2A-Version'],
  maxAge: 600,
});

/**
 * The HTTP face of the harness: the card, JSON-RPC, HTTP+JSON (with SSE), a
 * health check, and the web chat at `/ui`.
 */
export function createApp(harness: Harness, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogging(logger));
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.use([`/${AGENT_CARD_PATH}`, JSONRPC_PATH, REST_PATH], a2aCors);
  app.use(commandsRoutes(harness, { jsonRpcPath: JSONRPC_PATH, restPath: REST_PATH }));
  app.use(webUiRoutes());
  return app;
}
