import type { Request } from 'express';

/**
 * Whether the request's `If-None-Match` names `etag` (or is `*`), compared
 * weakly as RFC 9110 §13.1.2 asks: then the card is answered `304`.
 *
 * Express's `req.fresh` is not used on purpose: it answers "stale" to any
 * request carrying `Cache-Control: no-cache`, and the fetch standard adds that
 * header to every request that sets `If-None-Match` itself. So a browser or
 * Node client re-reading the card conditionally would always get the whole
 * card. The directive is addressed to caches; the origin server still
 * evaluates the precondition.
 */
export function matchesIfNoneMatch(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}
