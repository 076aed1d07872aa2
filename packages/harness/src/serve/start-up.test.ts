/**
 * While the harness starts, every request but `/healthz` gets 503 with
 * `Retry-After`; a JSON-RPC client gets it as a JSON-RPC error it can read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerWhileStarting, RETRY_AFTER_SECONDS, STARTING_CODE } from './start-up.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(answerWhileStarting);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

it.each(['/a2a/jsonrpc', '/A2A/JSONRPC/', '/a2a/jsonrpc?x=1'])(
  'POST %s: 503 with a JSON-RPC error body',
  async (path) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'x' } }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: STARTING_CODE,
        message: expect.stringContaining('starting'),
        data: { retryAfterSeconds: RETRY_AFTER_SECONDS },
      },
    });
  },
);

it("other paths get the own paths' refusal, a code and a message; /healthz answers", async () => {
  for (const path of ['/a2a/rest/tasks', '/metrics']) {
    const answer = await fetch(`${url}${path}`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      error: { code: 'starting', message: 'The agent is starting; retry in a moment.' },
    });
  }
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
});
