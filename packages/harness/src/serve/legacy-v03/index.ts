import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import type { CommandsCard } from 'a2a-commands';
import { Router } from 'express';
import { REST_PATH } from '../agent-card.js';
import { legacyCardRoute } from './card.js';
import { legacyFinalFlag } from './final.js';
import { legacyJsonRpcGuard } from './guard.js';

export { LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
export { legacyFinalFlag, legacyJsonRpcGuard };

/**
 * A2A 0.3 beside 1.0. The SDK's `legacyCompat` layer (switched on where the
 * A2A routes are made) serves 0.3 requests on the same JSON-RPC and HTTP+JSON
 * endpoints and translates messages, tasks and events both ways. This router
 * goes in front of it, after the API-key check and the body parsers, for what
 * that layer leaves short: the card both versions read, 0.3 params checked
 * with 0.3's types and `blocking` defaulted as 0.3 does, and `final` on the
 * event that ends a turn. See docs/extension.md, "A2A 0.3 clients". The
 * JSON-RPC fixes are in the binding's declared chain (jsonrpc-chain.ts).
 */
export function legacyV03Front(card: CommandsCard): Router {
  const router = Router();
  router.use(`/${AGENT_CARD_PATH}`, legacyCardRoute(card));
  router.use(REST_PATH, legacyFinalFlag);
  return router;
}
