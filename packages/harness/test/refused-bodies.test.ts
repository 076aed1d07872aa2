/**
 * Refused bodies reach every client as the refusal. A body over
 * `limits.bodyBytes` is answered 413 at once and its connection ends, so a
 * client trickling it cannot hold the socket; but the server goes on reading
 * (and discarding) for a bounded time before it closes, so Node's `fetch`
 * (undici) and a browser, which are still sending when the answer comes, read
 * the 413 and its message rather than a network error. The completion route
 * is held to the same rules, with its own spec's error shapes.
 */
import net from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from 'a2a-testing/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { LINGER_MS } from '../src/serve/connections.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

const KEY = 'refused-bodies-key-0123456789abcdef';
const BODY_BYTES = 64 * 1024;

let harness: TestHarness;
let browser: Browser;
beforeAll(async () => {
  harness = await startHarness({
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${KEY}`)),
    config: { limits: { bodyBytes: BODY_BYTES } },
  });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
});
afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

/** A `/title` whose argument is 2 MB: a JSON-RPC SendMessage far over the limit. */
function bigSend(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: {
      message: {
        messageId: 'm1',
        role: 'ROLE_USER',
        parts: [{ text: `/title ${'x'.repeat(2 * 1024 * 1024)}` }],
      },
    },
  });
}

const V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

describe("Node's fetch", () => {
  it('reads the 413 of a 2 MB body, with its JSON-RPC error', async () => {
    const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { ...V1, authorization: `Bearer ${KEY}` },
      body: bigSend(),
    });
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('a request can be at most');
  });

  it('reads the 413 on HTTP+JSON too', async () => {
    const response = await fetch(`${harness.url}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { ...V1, authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ message: JSON.parse(bigSend()).params.message }),
    });
    expect(response.status).toBe(413);
  });

  it('reads the 401 of a 2 MB body sent without a key', async () => {
    const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: V1,
      body: bigSend(),
    });
    expect(response.status).toBe(401);
  });

  it('reads the completion route 413 and 401 in the completion spec shape', async () => {
    const body = JSON.stringify({ command: 'model', argument: { value: 'x'.repeat(1024 * 1024) } });
    const tooLarge = await fetch(`${harness.url}/a2a/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body,
    });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      error: { code: 'invalid-request', message: expect.stringContaining('larger than') },
    });
    const noKey = await fetch(`${harness.url}/a2a/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({
      error: { code: 'unauthenticated', message: expect.stringContaining('API key') },
    });
  });
});

describe('Chromium', () => {
  it('reads the 413 of a 2 MB body, with its JSON-RPC error', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${harness.url}/healthz`);
      const answer = await page.evaluate(
        async ({ key, size }) => {
          const text = `/title ${'x'.repeat(size)}`;
          const response = await fetch('/a2a/jsonrpc', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'A2A-Version': '1.0',
              authorization: `Bearer ${key}`,
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'SendMessage',
              params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text }] } },
            }),
          });
          return { status: response.status, body: await response.text() };
        },
        { key: KEY, size: 2 * 1024 * 1024 },
      );
      expect(answer.status).toBe(413);
      expect(answer.body).toContain('a request can be at most');
    } finally {
      await page.close();
    }
  });
});

/** A socket that declares `length` bytes of body and then sends a byte a quarter-second. */
function trickler(path: string, length: number) {
  const { hostname, port, host } = new URL(harness.url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n` +
      `authorization: Bearer ${KEY}\r\nContent-Length: ${length}\r\n\r\n{`,
  );
  const timer = setInterval(() => socket.destroyed || socket.write('x'), 250);
  return { closed, received: () => received, stop: () => (clearInterval(timer), socket.destroy()) };
}

describe('a client trickling a body over the limit', () => {
  it.each(['/a2a/complete', '/a2a/jsonrpc', '/a2a/rest/message:send'])(
    '%s: 413 at once, and the connection ends within the linger bound',
    async (path) => {
      const client = trickler(path, 1_000_000);
      try {
        const ended = await Promise.race([
          client.closed.then(() => 'closed'),
          new Promise((resolve) => setTimeout(() => resolve('open'), LINGER_MS + 3000)),
        ]);
        expect(ended).toBe('closed');
        expect(client.received()).toMatch(/^HTTP\/1\.1 413/);
      } finally {
        client.stop();
      }
    },
  );
});
