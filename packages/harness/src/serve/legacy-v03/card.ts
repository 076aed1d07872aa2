import { gzipSync } from 'node:zlib';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import type { CommandsCard } from 'a2a-commands';
import { matchesIfNoneMatch } from 'a2a-commands/express';
import type { RequestHandler } from 'express';
import { requestsLegacyVersion } from './version.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The card for a client that names no version or 0.3: the 1.0 card, whole and
 * unchanged, plus the top-level fields a 0.3 client reads and 1.0 does not
 * have (`url`, `preferredTransport`, `protocolVersion`, `additionalInterfaces`,
 * `security`). The commands extension sits in `capabilities.extensions`, where
 * both versions look, under the same URI. Security schemes keep their 1.0 form,
 * which is also 0.3's protobuf JSON form (`{httpAuthSecurityScheme: {...}}`);
 * `security` is given in that form too, so a 0.3 reader sees one form only.
 */
export function withLegacyCardFields(card: Json): Json {
  const interfaces = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  const legacy = interfaces.filter(
    (entry): entry is Json => isObject(entry) && entry.protocolVersion === '0.3',
  );
  const [primary] = legacy;
  if (!primary) return card;
  const requirements = Array.isArray(card.securityRequirements) ? card.securityRequirements : [];
  const capabilities = isObject(card.capabilities) ? card.capabilities : {};
  return {
    ...card,
    protocolVersion: '0.3',
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    additionalInterfaces: legacy.map((entry) => ({
      url: entry.url,
      transport: entry.protocolBinding,
    })),
    ...(requirements.length > 0 ? { security: requirements } : {}),
    supportsAuthenticatedExtendedCard: capabilities.extendedAgentCard === true,
  };
}

/**
 * Serves the card to clients that name no version or 0.3, before the 1.0 card
 * route. The SDK's own 0.3 card route answers such requests with a translated
 * 0.3-only card; but a 1.0 client that fetches the card without the header
 * (curl, a browser, most tools) would then lose the 1.0 fields. So every such
 * request gets one card that both versions read. A request naming 1.0 goes on
 * to the 1.0 card route and gets the 1.0 card, byte for byte as before.
 */
export function legacyCardRoute(card: CommandsCard): RequestHandler {
  let cached = { source: '', etag: '', plain: Buffer.alloc(0), gzipped: Buffer.alloc(0) };
  // Rebuilt once per change of the card, not per request.
  const encoded = () => {
    if (cached.source !== card.etag) {
      const plain = Buffer.from(JSON.stringify(withLegacyCardFields(JSON.parse(card.json))));
      // The 1.0 card's tag, marked: the two bodies must never share an ETag.
      const etag = card.etag.replace(/"$/, '-v0.3"');
      cached = { source: card.etag, etag, plain, gzipped: gzipSync(plain) };
    }
    return cached;
  };
  return (req, res, next) => {
    // Shared caches must keep the two cards apart.
    res.vary(A2A_VERSION_HEADER);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !requestsLegacyVersion(req)) {
      next();
      return;
    }
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
  };
}
