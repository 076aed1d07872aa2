/**
 * Lets what runs for an HTTP request learn that its client hung up. The SDK's
 * SSE handlers go on iterating a stream after its client has gone, so a
 * subscription to an idle task would otherwise live, and buffer, for good.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

const connection = new AsyncLocalStorage<AbortSignal>();

/** Express middleware: the rest of the request runs with a signal that aborts when it closes. */
export function trackHangUp(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  connection.run(closed.signal, next);
}

/** Aborts when the client of the request being handled has gone; undefined outside a request. */
export function hangUpSignal(): AbortSignal | undefined {
  return connection.getStore();
}
