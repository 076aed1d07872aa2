import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { jsonRpcHandler, restHandler, type UserBuilder } from '@a2a-js/sdk/server/express';
import { gzipSync } from 'node:zlib';
import { Router, type RequestHandler } from 'express';
import type { CommandsCard } from '../card.js';
import type { ArgumentCompletions } from '../completion/server.js';
import { DEFAULT_COMPLETION_PATH } from '../completion/spec.js';
import { completionRoute } from './completion-route.js';
import { matchesIfNoneMatch } from './if-none-match.js';
import type { A2ARequestHandler, ServerCallContextBuilder } from '@a2a-js/sdk/server';

/**
 * Serves the card from its cached JSON with an ETag and `no-cache`, so that
 * commands registered at run time show at once and unchanged cards cost a 304;
 * gzipped for clients that accept it, so a card of a thousand commands stays small.
 */
export function commandsCardHandler(card: CommandsCard): RequestHandler {
  const router = Router();
  let cached = { etag: '', plain: Buffer.alloc(0), gzipped: Buffer.alloc(0) };
  // Encoded once per change of the card, not per request.
  const encoded = () => {
    if (cached.etag !== card.etag) {
      const plain = Buffer.from(card.json);
      cached = { etag: card.etag, plain, gzipped: gzipSync(plain) };
    }
    return cached;
  };
  router.get('/', async (req, res) => {
    // A signed card is served only once its current version is signed.
    await card.settled();
    const { etag, plain, gzipped } = encoded();
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    res.vary('Accept-Encoding');
    if (matchesIfNoneMatch(req, etag)) {
      res.status(304).end();
      return;
    }
    res.type('application/json');
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      res.end(gzipped);
      return;
    }
    res.end(plain);
  });
  return router;
}

export interface CommandsRoutesOptions {
  /**
   * Who the caller is, for the SDK's handlers and `context.caller`. Required, so
   * that wiring commands never turns an agent's authentication off by default:
   * pass the builder the agent already uses, or `UserBuilder.noAuthentication`
   * to choose an open agent.
   */
  userBuilder: UserBuilder;
  /** Where JSON-RPC is served when the card declares `JSONRPC`; `/a2a/jsonrpc` by default. */
  jsonRpcPath?: string;
  /** Where HTTP+JSON is served when the card declares `HTTP+JSON`; `/a2a/rest` by default. */
  restPath?: string;
  /** Where the completion route is served, when the target has `completions`; `/a2a/complete` by default. */
  completionPath?: string;
  /**
   * Also serve A2A 0.3 requests (no `A2A-Version` header, or `0.3`) through the
   * SDK's compat layer. The card must then name 0.3 interfaces as well.
   */
  legacyCompat?: boolean;
}

/** What the routes serve: `createCommandsServer()` returns it, or wire your own. */
export interface CommandsRoutesTarget {
  card: CommandsCard;
  requestHandler: A2ARequestHandler;
  contextBuilder: ServerCallContextBuilder;
  /** The command completion extension's logic; its route is served when present. */
  completions?: ArgumentCompletions;
}

/** The card's protocol bindings, as `supportedInterfaces[].protocolBinding` names them. */
function declaredBindings(card: CommandsCard): Set<string> {
  return new Set((card.current.supportedInterfaces ?? []).map((i) => i.protocolBinding));
}

/**
 * The card, and the A2A routes of a commands-enabled agent, as one router: the
 * card at `/.well-known/agent-card.json`, JSON-RPC at `jsonRpcPath` only when the
 * card declares a `JSONRPC` interface, HTTP+JSON at `restPath` only when it
 * declares `HTTP+JSON`. A binding the card does not name is not served at all.
 */
export function commandsRoutes(
  server: CommandsRoutesTarget,
  options: CommandsRoutesOptions,
): Router {
  const { requestHandler, contextBuilder } = server;
  const userBuilder = (options as Partial<CommandsRoutesOptions> | undefined)?.userBuilder;
  if (typeof userBuilder !== 'function') {
    throw new TypeError(
      'commandsRoutes needs options.userBuilder: the user builder your agent authenticates with, or UserBuilder.noAuthentication for an agent open to anyone.',
    );
  }
  const bindings = declaredBindings(server.card);
  const legacyCompat = { enabled: options.legacyCompat ?? false };
  const router = Router();
  router.use(`/${AGENT_CARD_PATH}`, commandsCardHandler(server.card));
  if (bindings.has('JSONRPC')) {
    router.use(
      options.jsonRpcPath ?? '/a2a/jsonrpc',
      jsonRpcHandler({ requestHandler, userBuilder, contextBuilder, legacyCompat }),
    );
  }
  if (bindings.has('HTTP+JSON')) {
    router.use(
      options.restPath ?? '/a2a/rest',
      restHandler({ requestHandler, userBuilder, contextBuilder, legacyCompat }),
    );
  }
  if (server.completions) {
    router.use(
      options.completionPath ?? DEFAULT_COMPLETION_PATH,
      completionRoute(server.completions, { userBuilder }),
    );
  }
  return router;
}
export { completionRoute, type CompletionRouteOptions } from './completion-route.js';
export { matchesIfNoneMatch } from './if-none-match.js';
