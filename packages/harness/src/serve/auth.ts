import type { User } from '@a2a-js/sdk/server';
import { UserBuilder } from '@a2a-js/sdk/server/express';
import type { Request, RequestHandler, Response } from 'express';
import type { ApiKeys } from './api-keys.js';
import { requestsLegacyVersion } from './legacy-v03/version.js';
import { closeAfterResponse } from './connections.js';
import { ownRefusal } from './own-refusals.js';

/** The name of the scheme on the card. */
export const BEARER_SCHEME_NAME = 'bearer';

/**
 * JSON-RPC has no standard code for this; A2A leaves it to a custom error.
 * -32000 is the start of JSON-RPC's implementation-defined server range, clear
 * of the codes A2A assigns (-32001 to -32009).
 */
export const UNAUTHENTICATED_CODE = -32000;

/** One message for a missing, malformed and wrong key alike: a refusal must not say which. */
export const UNAUTHENTICATED_MESSAGE =
  'Unauthenticated: this agent needs a valid API key, sent as "Authorization: Bearer <key>".';

/** A caller who presented a valid key. Its name is what tasks are owned by. */
export class Principal implements User {
  constructor(
    readonly userName: string,
    /** The digest of the key it presented: a stream it opened ends when that key is revoked. */
    readonly keyDigest?: Buffer,
  ) {}
  get isAuthenticated(): boolean {
    return true;
  }
}

const principals = new WeakMap<Request, Principal>();

/** The principal `requireApiKey` let this request through as; undefined without keys. */
export function principalOf(req: Request): string | undefined {
  return principals.get(req)?.userName;
}

/** The key of `Authorization: Bearer <key>`, or undefined. */
export function bearerToken(req: Request): string | undefined {
  return bearerKeyOf(req.header('authorization'));
}

/** The key of an `Authorization` value `Bearer <key>` (a header, or gRPC metadata), or undefined. */
export function bearerKeyOf(authorization: string | undefined): string | undefined {
  const match = /^Bearer +([^\s]+) *$/i.exec(authorization ?? '');
  return match?.[1];
}

/**
 * Express middleware for one A2A binding: a valid key lets the request through
 * as its principal; anything else gets 401 in the binding's own error shape.
 * Preflights pass, so browsers can ask before they send the key.
 */
export function requireApiKey(keys: ApiKeys, binding: Binding): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'OPTIONS') {
      next();
      return;
    }
    const token = bearerToken(req);
    const holder = token === undefined ? undefined : keys.holderOf(token);
    if (holder === undefined) {
      closeAfterResponse(req, res);
      refuse(req, res, binding);
      return;
    }
    principals.set(req, new Principal(holder.principal, holder.digest));
    next();
  };
}

/** Who answers: an A2A binding, or the completion route (its own spec's error shape). */
type Binding = 'jsonrpc' | 'rest' | 'completion';

function refuse(req: Request, res: Response, binding: Binding): void {
  res.status(401).setHeader('WWW-Authenticate', 'Bearer realm="a2a-harness"');
  if (binding === 'completion') {
    res.json(ownRefusal('unauthenticated', UNAUTHENTICATED_MESSAGE));
    return;
  }
  if (binding === 'jsonrpc') {
    res.json({
      jsonrpc: '2.0',
      id: null,
      error: { code: UNAUTHENTICATED_CODE, message: UNAUTHENTICATED_MESSAGE },
    });
    return;
  }
  if (requestsLegacyVersion(req)) {
    // 0.3's HTTP+JSON error body: a bare `{code, message}`, as its clients read it.
    res.json({ code: UNAUTHENTICATED_CODE, message: UNAUTHENTICATED_MESSAGE });
    return;
  }
  res.json({
    error: { code: 401, status: 'UNAUTHENTICATED', message: UNAUTHENTICATED_MESSAGE, details: [] },
  });
}

/** The SDK's user builder: the principal `requireApiKey` let through, or anonymous without keys. */
export const principalUserBuilder: UserBuilder = (req) => {
  const principal = principals.get(req);
  return principal ? Promise.resolve(principal) : UserBuilder.noAuthentication();
};
