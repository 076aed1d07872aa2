import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { STATE_HEADERS_KEY, type ServerCallContext } from '@a2a-js/sdk/server';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { enterRequestScope, hangUpSignal, requestLog } from './request-scope.js';

/** As the SDK's context builder makes it: the request's headers object in `state`. */
const contextOf = (req: http.IncomingMessage) =>
  ({ state: new Map([[STATE_HEADERS_KEY, req.headers]]) }) as unknown as ServerCallContext;

let server: http.Server | undefined;
afterEach(
  () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
);

/** A real server whose handler is `handle`; resolves with its URL. */
async function serving(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a request scope', () => {
  it("leads from the request's context to its logger, made on first use and kept", async () => {
    const fallback = pino({ level: 'silent' });
    let made = 0;
    const seen: { before: number; same: boolean; keys: string[]; copied: number }[] = [];
    const url = await serving((req, res) => {
      const keys = Object.keys(req.headers);
      enterRequestScope(req, res, () => (made++, fallback.child({ requestId: 'r1' })));
      const context = contextOf(req);
      const before = made;
      const first = requestLog(context, fallback);
      seen.push({
        before,
        same: first === requestLog(context, fallback) && first !== fallback,
        keys: Object.keys(req.headers).filter((key) => !keys.includes(key)),
        copied: Object.getOwnPropertySymbols({ ...req.headers }).length,
      });
      res.end('ok');
    });
    expect(await (await fetch(url)).text()).toBe('ok');
    expect(seen).toEqual([{ before: 0, same: true, keys: [], copied: 0 }]);
    expect(made).toBe(1);
  });

  it('outside a request there is none: the fallback logger, no hang-up signal', () => {
    const fallback = pino({ level: 'silent' });
    const headers = { host: 'example' };
    const context = {
      state: new Map([[STATE_HEADERS_KEY, headers]]),
    } as unknown as ServerCallContext;
    expect(requestLog(context, fallback)).toBe(fallback);
    expect(hangUpSignal(context)).toBeUndefined();
    expect(requestLog(undefined, fallback)).toBe(fallback);
  });

  it('aborts its hang-up signal when the client goes before the answer', async () => {
    let signal: AbortSignal | undefined;
    const aborted = new Promise<void>((resolve) => {
      void serving((req, res) => {
        enterRequestScope(req, res, () => pino({ level: 'silent' }));
        signal = hangUpSignal(contextOf(req));
        signal!.addEventListener('abort', () => resolve());
      }).then((url) => {
        const request = http.get(url);
        request.on('error', () => {});
        setTimeout(() => request.destroy(), 50);
      });
    });
    await aborted;
    expect(signal!.aborted).toBe(true);
  });
});
