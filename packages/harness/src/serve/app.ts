import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { commandsRoutes } from 'a2a-commands/express';
import cors from 'cors';
import express, { type Express } from 'express';
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
import { trackHangUp } from '../hang-up.js';
import type { Harness } from './harness.js';
import { COMPLETE_PATH } from './completion.js';
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
 * health check, and the web chat at `/ui`. With API keys, only the card, the
 * health check and the web chat's files are public.
 */
export function createApp(harness: Harness, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogging(logger));
  app.use(trackHangUp);
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
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
  app.use(
    commandsRoutes(harness, {
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
