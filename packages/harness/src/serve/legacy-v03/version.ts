import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import type { Request } from 'express';

/** The protocol version a request names: no `A2A-Version` header means 0.3, as A2A 1.0 says. */
export function requestsLegacyVersion(req: Request): boolean {
  const named = req.header(A2A_VERSION_HEADER)?.trim();
  if (!named) return true;
  const major = Number.parseInt(named.split('.')[0] ?? '', 10);
  return major === 0;
}
