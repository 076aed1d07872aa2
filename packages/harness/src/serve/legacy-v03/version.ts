import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import type { IncomingHttpHeaders } from 'node:http';

/** The protocol version a request names: no `A2A-Version` header means 0.3, as A2A 1.0 says. */
export function requestsLegacyVersion(req: { headers: IncomingHttpHeaders }): boolean {
  // What Express's `req.header()` reads: Node joins a repeated header into one string.
  const value = req.headers[A2A_VERSION_HEADER.toLowerCase()];
  const named = (typeof value === 'string' ? value : undefined)?.trim();
  if (!named) return true;
  const major = Number.parseInt(named.split('.')[0] ?? '', 10);
  return major === 0;
}
