import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Limits } from '../config/limits.js';

/** How often Node checks the header and request timeouts: its default, 30 s, would let them run late. */
export const TIMEOUT_CHECK_MS = 1000;

/**
 * A server any client can reach must not be held open by
 * clients who never finish. Connections past `maxConnections` are dropped;
 * headers must arrive within `headersTimeoutMs`, the whole request within
 * `requestTimeoutMs` (Node answers 408 and closes).
 */
export function applyConnectionLimits(
  server: Server,
  limits: Pick<Limits, 'maxConnections' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  // Node requires requestTimeout ≥ headersTimeout (0 turns it off).
  server.requestTimeout = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);
}

/**
 * A refusal (401, 413) ends the connection: the server does not read the rest
 * of a body it will not use, so a client trickling one byte at a time cannot
 * hold the socket. Call before the response is sent.
 */
export function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  res.once('finish', () => {
    if (req.complete) return;
    // What is left of the body is not read: end our side, then drop the socket once flushed.
    const socket = req.socket;
    socket.end();
    socket.once('finish', () => socket.destroy());
  });
}
