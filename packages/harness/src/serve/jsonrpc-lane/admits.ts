import type { IncomingMessage } from 'node:http';
import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { JSONRPC_PATH } from '../agent-card.js';
import { requestsLegacyVersion } from '../legacy-v03/version.js';

/** The body types the lane reads; body-parser reads these as UTF-8 JSON too. */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

const DECIMAL = /^\d+$/;

/**
 * Whether the lane serves `req`, from its request line and headers alone (the
 * body is not read yet, so every other request goes to Express untouched):
 * a POST to the JSON-RPC path itself, from no browser (an `Origin` is CORS's
 * business), in A2A 1.0 (0.3 has its own fixes in Express), with a plain JSON
 * body of a declared length within `bodyBytes`. Anything else, however odd,
 * is Express's to answer, as it was before the lane.
 */
export function laneServes(req: IncomingMessage, bodyBytes: number): boolean {
  const { headers } = req;
  if (req.method !== 'POST' || req.url !== JSONRPC_PATH) return false;
  if (headers.origin !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const type = headers['content-type'];
  if (type === undefined || !JSON_TYPES.has(type.toLowerCase())) return false;
  const length = headers['content-length'];
  if (length === undefined || !DECIMAL.test(length)) return false;
  const bytes = Number(length);
  if (bytes === 0 || bytes > bodyBytes) return false;
  // No A2A-Version header means 0.3 (A2A 1.0 says so).
  const version = headers[A2A_VERSION_HEADER.toLowerCase()];
  return typeof version === 'string' && !requestsLegacyVersion(req);
}
