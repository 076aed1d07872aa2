import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Limits } from '../config/limits.js';

/** How often Node checks the header and request timeouts: its default, 30 s, would let them run late. */
export const TIMEOUT_CHECK_MS = 1000;

/**
 * A server any client can reach must not be held open by clients who never
 * finish. Connections past `maxConnections` are dropped;
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
 * RFC 9112 §9.6: a client that sends `Connection: close` has its connection
 * closed after the response. The SDK sets `Connection: keep-alive` on every
 * event stream, and Node takes that header as the response's choice, so the
 * socket stayed open until the keep-alive timeout. Node has already decided
 * from the request (`shouldKeepAlive`) when the server gets the response; one
 * that must close keeps that decision. An own property, because Express
 * replaces the prototype of the responses it serves.
 */
export function keepCloseAsked(res: ServerResponse): void {
  if (res.shouldKeepAlive) return;
  const setHeader = res.setHeader;
  res.setHeader = function (this: ServerResponse, name, value) {
    return name.toLowerCase() === 'connection' ? this : setHeader.call(this, name, value);
  };
}

/** How long a refused request's connection may go on sending before it is dropped, at most... */
export const LINGER_MS = 3000;
/** ...and how long it may pause between chunks... */
export const LINGER_IDLE_MS = 1000;
/** ...and how many more bytes it may send, read and discarded. */
export const LINGER_BYTES = 32 * 1024 * 1024;

type LingeringSocket = Socket & { destroySoon?: () => void };

/**
 * A refusal (401, 413) ends the connection: the server will not use the rest
 * of the body, and a client trickling one byte at a time must not hold the
 * socket. But a client still sending when the answer comes (Node's `fetch`, a
 * browser) reads it only if the server goes on reading: closing at once resets
 * the connection, and the client sees a network error instead of the refusal.
 * So the close lingers, as nginx's does: after the answer, what the client
 * still sends is read and thrown away, for a bounded time and amount, then the
 * socket is dropped. Call before the response is sent.
 */
export function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  if (req.complete) return;
  // Node closes a `Connection: close` socket with `destroySoon` once the answer is written.
  const socket = req.socket as LingeringSocket;
  socket.destroySoon = () => lingerThenClose(socket);
}

function lingerThenClose(socket: Socket): void {
  socket.end();
  const drop = () => socket.destroy();
  const deadline = setTimeout(drop, LINGER_MS);
  const idle = setTimeout(drop, LINGER_IDLE_MS);
  let left = LINGER_BYTES;
  // The HTTP parser still reads the socket; Node discards the rest of the body.
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left <= 0) drop();
    else idle.refresh();
  });
  // The client has sent all it will: nothing is left to wait for.
  socket.once('end', drop);
  socket.once('close', () => {
    clearTimeout(deadline);
    clearTimeout(idle);
  });
}
