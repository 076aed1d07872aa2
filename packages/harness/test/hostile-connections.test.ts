/**
 * Hostile connections, over real HTTP on loopback: refused requests
 * end their connection, connections and slow headers are bounded, internal
 * errors reach clients as a stable message and the log in full, and request
 * URLs are logged without their query strings.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys } from '../src/serve/api-keys.js';
import { INTERNAL_ERROR_MESSAGE } from '../src/serve/internal-errors.js';
import { createLogger } from '../src/serve/logging.js';
import { rpc } from 'a2a-testing/http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { logLines } from 'a2a-testing/log-lines';

const KEY = 'k'.repeat(32);
let harness: TestHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

/** The harness's own logger, keeping every line, parsed. */
function capturingLogger() {
  const { stream, lines } = logLines();
  return { logger: createLogger('debug', stream), lines };
}

/** A socket to the harness, and a promise of the moment the server closes it. */
function connect(url: string) {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, connected, received: () => received };
}

/** `'closed'` if the server closes the socket within `ms`, else `'open'`. */
function closedWithin(closed: Promise<'closed'>, ms: number): Promise<'closed' | 'open'> {
  return Promise.race([closed, new Promise<'open'>((r) => setTimeout(() => r('open'), ms))]);
}

/** Writes a byte a quarter-second, as the attack did, until stopped. */
function trickle(socket: net.Socket): () => void {
  const timer = setInterval(() => {
    if (!socket.destroyed) socket.write('x');
  }, 250);
  return () => clearInterval(timer);
}

function postHeaders(url: string, contentLength: number, extra = ''): string {
  const { host } = new URL(url);
  return `POST /a2a/jsonrpc HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\nA2A-Version: 1.0\r\n${extra}Content-Length: ${contentLength}\r\n\r\n`;
}

describe('item 14: connections held without authentication', () => {
  // Keys, and the default body limit (1 MiB): the 401's body of 1,000,000 bytes is under it.
  let keyed: TestHarness;
  beforeAll(async () => {
    keyed = await startHarness({
      apiKeys: new ApiKeys([{ principal: 'alice', key: KEY, source: 't' }]),
    });
  });
  afterAll(() => keyed?.stop());

  it('a 401 ends the connection while the client still trickles its body', async () => {
    const client = connect(keyed.url);
    await client.connected;
    client.socket.write(postHeaders(keyed.url, 1_000_000) + '{');
    const stop = trickle(client.socket);
    try {
      expect(await closedWithin(client.closed, 5000)).toBe('closed');
    } finally {
      stop();
      client.socket.destroy();
    }
    expect(client.received()).toMatch(/^HTTP\/1\.1 401/);
    expect(client.received()).toMatch(/connection: close/i);
  });

  it('a 413 ends the connection while the client still trickles its body', async () => {
    const client = connect(keyed.url);
    await client.connected;
    // With the key: only the length, over the default limit, is refused.
    const overLimit = keyed.harness.limits.bodyBytes + 1;
    client.socket.write(
      postHeaders(keyed.url, overLimit, `Authorization: Bearer ${KEY}\r\n`) + '{',
    );
    const stop = trickle(client.socket);
    try {
      expect(await closedWithin(client.closed, 5000)).toBe('closed');
    } finally {
      stop();
      client.socket.destroy();
    }
    expect(client.received()).toMatch(/^HTTP\/1\.1 413/);
  });
});

describe('item 14: slow requests are bounded', () => {
  let slow: TestHarness;
  beforeAll(async () => {
    slow = await startHarness({
      config: { limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } },
    });
  });
  afterAll(() => slow?.stop());

  it('headers that never finish are cut off after limits.headersTimeoutMs', async () => {
    const client = connect(slow.url);
    await client.connected;
    const { host } = new URL(slow.url);
    client.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`);
    const stop = setInterval(() => client.socket.write('X-Slow: 1\r\n'), 200);
    try {
      expect(await closedWithin(client.closed, 5000)).toBe('closed');
    } finally {
      clearInterval(stop);
      client.socket.destroy();
    }
  });

  it('a body that never finishes is cut off after limits.requestTimeoutMs', async () => {
    const client = connect(slow.url);
    await client.connected;
    client.socket.write(postHeaders(slow.url, 100) + '{');
    const stop = trickle(client.socket);
    try {
      expect(await closedWithin(client.closed, 6000)).toBe('closed');
    } finally {
      stop();
      client.socket.destroy();
    }
  });
});

describe('item 14: too many connections', () => {
  it('connections past limits.maxConnections are dropped, and the server goes on', async () => {
    harness = await startHarness({ config: { limits: { maxConnections: 2 } } });
    const held = [connect(harness.url), connect(harness.url)];
    await Promise.all(held.map((c) => c.connected));
    // The server counts a connection once it has accepted it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const third = connect(harness.url);
    expect(await closedWithin(third.closed, 3000)).toBe('closed');
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    const health = await fetch(`${harness.url}/healthz`);
    expect(health.status).toBe(200);
  });
});

describe('item 19: secrets in logs', () => {
  it('request URLs are logged without their query strings', async () => {
    const { logger, lines } = capturingLogger();
    harness = await startHarness({ logger });
    await fetch(`${harness.url}/a2a/jsonrpc?key=SECRET-KEY-123`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: '{}',
    });
    await fetch(`${harness.url}/healthz?api_key=SECRET-KEY-456`);
    const requests = lines.filter((line) => line.req?.url);
    expect(requests.map((line) => line.req.url)).toEqual(
      expect.arrayContaining(['/a2a/jsonrpc', '/healthz']),
    );
    expect(JSON.stringify(lines)).not.toContain('SECRET-KEY');
  });
});

describe('item 7: internal errors reach clients', () => {
  it('a failure inside the server is logged with the request id; the client gets a stable message', async () => {
    const { logger, lines } = capturingLogger();
    harness = await startHarness({ logger });
    // As in a shutdown mid-answer: the database is gone while requests still arrive.
    await harness.harness.close();
    const listed = await rpc(harness.url, 'ListTasks', {});
    expect(listed.body.error).toEqual({ code: -32603, message: INTERNAL_ERROR_MESSAGE });
    const requestId = listed.headers.get('x-request-id');
    const logged = lines.find((line) => line.msg === 'internal error answered as such');
    expect(logged?.level).toBe(50);
    expect(logged?.err?.message).toMatch(/destroyed/);
    expect(logged?.requestId).toBe(requestId);
  });
});

describe('a client that asks to close the connection', () => {
  /** One request with `Connection: close`, as curl and HTTP/1.0 clients send it; the answer's head, once the server has closed. */
  async function askingToClose(body: object): Promise<string> {
    const json = JSON.stringify(body);
    const { socket, closed, connected, received } = connect(harness!.url);
    await connected;
    socket.write(
      [
        'POST /a2a/jsonrpc HTTP/1.1',
        `Host: ${new URL(harness!.url).host}`,
        'Content-Type: application/json',
        'A2A-Version: 1.0',
        'Connection: close',
        `Content-Length: ${Buffer.byteLength(json)}`,
        '',
        json,
      ].join('\r\n'),
    );
    await closed;
    return received().split('\r\n\r\n')[0]!;
  }

  // RFC 9112 §9.6: the server closes the connection after its response.
  it.each([
    ['SendMessage', 'a plain answer'],
    ['SendStreamingMessage', 'an event stream, whose headers say keep-alive by default'],
  ])('%s (%s): the answer says Connection: close, and the server closes', async (method) => {
    harness = await startHarness();
    const head = await askingToClose({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        message: { messageId: `m-${method}`, role: 'ROLE_USER', parts: [{ text: '/help' }] },
      },
    });
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(head.toLowerCase()).not.toContain('connection: keep-alive');
  });
});
