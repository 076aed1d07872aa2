/**
 * The JSON-RPC lane answers exactly as the Express app it stands in
 * front of. The same requests go to a server that is the lane (with the app
 * behind it) and to one that is the app alone, over one harness; statuses,
 * headers, bodies and log lines must match, and each request must have been
 * served by the side this test expects (the lane, or Express behind it).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { COMMANDS_EXTENSION_URI } from 'a2a-commands';
import type { Express } from 'express';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { createApp } from '../src/serve/app.js';
import { jsonRpcChain } from '../src/serve/jsonrpc-chain.js';
import { jsonRpcLane } from '../src/serve/jsonrpc-lane/index.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { logLines, type LogLine } from 'a2a-testing/log-lines';
import { rawRequest, type RawResponse } from 'a2a-testing/raw-http';

const KEY = 'lane-test-key-0123456789abcdef';
const BODY_BYTES = 4096;

interface Side {
  url: string;
  server: Server;
  lines: Record<string, unknown>[];
  /** Requests the app behind the lane answered (the plain side: all). */
  toExpress: number;
}

function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const { stream, lines } = logLines();
  return { logger: pino({ level: 'info' }, stream), lines };
}

async function listen(listener: RequestListener): Promise<[Server, string]> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return [server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`];
}

let running: TestHarness;
let plain: Side;
let lane: Side;

async function side(withLane: boolean): Promise<Side> {
  const { harness } = running;
  const { logger, lines } = capturingLogger();
  const chain = jsonRpcChain(harness, logger);
  const app = createApp(harness, logger, undefined, chain);
  const made = { lines, toExpress: 0 } as Side;
  const counted = Object.assign(
    ((req, res) => {
      made.toExpress++;
      app(req, res);
    }) as RequestListener,
    { request: app.request, response: app.response, get: app.get.bind(app) },
  ) as unknown as Express;
  const listener = withLane
    ? jsonRpcLane({ harness, chain, app: counted })
    : (counted as unknown as RequestListener);
  [made.server, made.url] = await listen(listener);
  return made;
}

beforeAll(async () => {
  running = await startHarness({
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${KEY}`)),
    config: {
      // Rate limits are charged inside the harness, which both sides share: none here
      // (route-spellings.test.ts charges one caller through both doors).
      limits: { bodyBytes: BODY_BYTES, commandsPerMinute: 0, turnsPerMinute: 0 },
    },
  });
  plain = await side(false);
  lane = await side(true);
});

afterAll(async () => {
  for (const s of [plain, lane]) s?.server.close();
  await running?.stop();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** What may differ between two answers to the same request: ids and clocks. */
function comparable(response: RawResponse) {
  const { date: _date, ...headers } = response.headers;
  return {
    status: response.status,
    headers: JSON.parse(JSON.stringify(headers).replace(UUID, '<uuid>')) as Record<string, string>,
    body: response.body.replace(UUID, '<uuid>').replace(TIME, '<time>'),
  };
}

function comparableLine(line: Record<string, unknown>) {
  const { time: _t, pid: _p, hostname: _h, responseTime: _r, requestId, ...rest } = line;
  return { ...rest, requestId: String(requestId).replace(UUID, '<uuid>') };
}

const V1 = { 'A2A-Version': '1.0', 'Content-Type': 'application/json' };
const AUTHED = { ...V1, Authorization: `Bearer ${KEY}` };

let counter = 0;
function send(text: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: {
      message: { messageId: `m-${++counter}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
    },
  });
}

interface Case {
  name: string;
  method?: string;
  path?: string;
  headers: Record<string, string>;
  body: string;
  /** Whether the lane serves it itself (else it hands it to Express whole). */
  inLane: boolean;
}

const deep = `${'{"a":'.repeat(150)}1${'}'.repeat(150)}`;

const CASES: Case[] = [
  { name: '/help on a new task', headers: AUTHED, body: send('/help'), inLane: true },
  {
    name: '/help asking for the extension (A2A-Extensions echo)',
    headers: { ...AUTHED, 'A2A-Extensions': COMMANDS_EXTENSION_URI, 'X-Request-Id': 'given-1' },
    body: send('/help'),
    inLane: true,
  },
  {
    name: 'charset=utf-8 and a BOM',
    headers: { ...AUTHED, 'Content-Type': 'application/json; charset=utf-8' },
    body: `\uFEFF${send('/help')}`,
    inLane: true,
  },
  {
    name: 'id 0 kept',
    headers: AUTHED,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'GetTask', params: {} }),
    inLane: true,
  },
  { name: 'malformed JSON', headers: AUTHED, body: '{"jsonrpc":', inLane: true },
  { name: 'a JSON string, not an object', headers: AUTHED, body: ' "hello"', inLane: true },
  { name: 'a batch', headers: AUTHED, body: '[]', inLane: true },
  { name: 'a bare BOM', headers: AUTHED, body: '\uFEFF', inLane: true },
  {
    name: 'no jsonrpc member',
    headers: AUTHED,
    body: JSON.stringify({ id: 2, method: 'GetTask', params: { id: 'x' } }),
    inLane: true,
  },
  {
    name: 'an object as id',
    headers: AUTHED,
    body: JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'GetTask', params: {} }),
    inLane: true,
  },
  { name: 'nested too deep', headers: AUTHED, body: deep, inLane: true },
  {
    name: 'params of the wrong types',
    headers: AUTHED,
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'SendMessage', params: { message: 5 } }),
    inLane: true,
  },
  {
    name: 'a message without parts',
    headers: AUTHED,
    body: send('/help', { parts: [] }),
    inLane: true,
  },
  {
    name: 'an unknown method',
    headers: AUTHED,
    body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'Nope', params: {} }),
    inLane: true,
  },
  {
    name: 'a task that does not exist',
    headers: AUTHED,
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'GetTask', params: { id: 'missing' } }),
    inLane: true,
  },
  {
    name: 'ListTasks',
    headers: AUTHED,
    body: JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ListTasks', params: { pageSize: 1 } }),
    inLane: true,
  },
  { name: 'no key', headers: V1, body: send('/help'), inLane: true },
  {
    name: 'a wrong key',
    headers: { ...V1, Authorization: 'Bearer wrong-key-wrong-key-wrong' },
    body: send('/help'),
    inLane: true,
  },
  {
    name: 'an unsupported version',
    headers: { ...AUTHED, 'A2A-Version': '2.0' },
    body: send('/help'),
    inLane: true,
  },
  {
    name: 'streaming /help',
    headers: AUTHED,
    body: send('/help').replace('"SendMessage"', '"SendStreamingMessage"'),
    inLane: true,
  },
  {
    name: 'a body over limits.bodyBytes',
    headers: AUTHED,
    body: send('x'.repeat(BODY_BYTES)),
    inLane: false,
  },
  {
    name: 'A2A 0.3 (no A2A-Version)',
    headers: { ...AUTHED, 'A2A-Version': '' },
    body: '',
    inLane: false,
  },
  {
    name: 'A2A 0.3 message/send',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${KEY}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'message/send',
      params: {
        message: {
          kind: 'message',
          messageId: 'v03',
          role: 'user',
          parts: [{ kind: 'text', text: '/help' }],
        },
      },
    }),
    inLane: false,
  },
  {
    name: 'from a browser (Origin)',
    headers: { ...AUTHED, Origin: 'http://example.test' },
    body: send('/help'),
    inLane: false,
  },
  {
    name: 'text/plain',
    headers: { ...AUTHED, 'Content-Type': 'text/plain' },
    body: send('/help'),
    inLane: false,
  },
  {
    name: 'a query string',
    path: '/a2a/jsonrpc?x=1',
    headers: AUTHED,
    body: send('/help'),
    inLane: false,
  },
  { name: 'GET', method: 'GET', headers: AUTHED, body: '', inLane: false },
  {
    name: 'an empty body',
    headers: { ...AUTHED, 'Content-Length': '0' },
    body: '',
    inLane: false,
  },
  {
    name: 'a body that says it is gzipped',
    headers: { ...AUTHED, 'Content-Encoding': 'gzip' },
    body: send('/help'),
    inLane: false,
  },
];

describe('the JSON-RPC lane answers as the Express app does', () => {
  for (const c of CASES) {
    it(`${c.inLane ? 'lane' : 'Express'}: ${c.name}`, async () => {
      const headers = Object.fromEntries(Object.entries(c.headers).filter(([, v]) => v !== ''));
      const ask = (s: Side) =>
        rawRequest(s.url, c.method ?? 'POST', c.path ?? '/a2a/jsonrpc', headers, c.body);
      const toExpress = lane.toExpress;
      const expected = await ask(plain);
      const answered = await ask(lane);
      expect(lane.toExpress - toExpress).toBe(c.inLane ? 0 : 1);
      expect(comparable(answered)).toEqual(comparable(expected));
    });
  }

  it('a client that leaves mid-body: nothing answered, the server goes on', async () => {
    const toExpress = lane.toExpress;
    for (const s of [plain, lane]) {
      const { hostname, port } = new URL(s.url);
      const socket = net.connect(Number(port), hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        [
          'POST /a2a/jsonrpc HTTP/1.1',
          `Host: ${hostname}:${port}`,
          'A2A-Version: 1.0',
          'Content-Type: application/json',
          `Authorization: Bearer ${KEY}`,
          'X-Request-Id: leaves-mid-body',
          'Content-Length: 100',
          '',
          '{"jsonrpc":',
        ].join('\r\n'),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(lane.toExpress).toBe(toExpress);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ListTasks', params: {} });
    for (const s of [plain, lane]) {
      const answer = await rawRequest(s.url, 'POST', '/a2a/jsonrpc', AUTHED, list);
      expect(answer.status).toBe(200);
    }
    const left = (s: Side) => s.lines.filter((line) => line.requestId === 'leaves-mid-body');
    expect(left(lane).map(comparableLine)).toEqual(left(plain).map(comparableLine));
    expect(left(lane)).toHaveLength(1);
  });

  it('logs the same lines', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lane.lines.length).toBeGreaterThan(CASES.length);
    expect(lane.lines.map(comparableLine)).toEqual(plain.lines.map(comparableLine));
  });
});
