/**
 * The JSON-RPC middleware is declared once (`jsonRpcChain`) and both doors
 * are built from it: a middleware added to the declaration runs on the lane
 * (a plain A2A 1.0 POST) and on Express (a browser's call), and sees the
 * operation the binding decided.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler } from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callOf } from '../src/serve/a2a-call/index.js';
import { createApp } from '../src/serve/app.js';
import { jsonRpcChain } from '../src/serve/jsonrpc-chain.js';
import { jsonRpcLane } from '../src/serve/jsonrpc-lane/index.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let running: TestHarness;
let server: Server;
let url: string;
let toExpress = 0;

beforeAll(async () => {
  running = await startHarness();
  const { harness } = running;
  const logger = pino({ level: 'silent' });
  const chain = jsonRpcChain(harness, logger);
  const added: RequestHandler = (req, res, next) => {
    res.setHeader('X-Added-Middleware', callOf(req)?.method ?? 'none');
    next();
  };
  chain.afterBody.push(added);
  const app = createApp(harness, logger, undefined, chain);
  const counted = Object.assign(
    ((req, res) => {
      toExpress++;
      app(req, res);
    }) as RequestListener,
    { request: app.request, response: app.response, get: app.get.bind(app) },
  ) as unknown as Express;
  server = createServer(jsonRpcLane({ harness, chain, app: counted }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.close();
  await running?.stop();
});

const listTasks = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} });
const V1 = { 'content-type': 'application/json', 'A2A-Version': '1.0' };

it('runs on the lane', async () => {
  const before = toExpress;
  const response = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: V1,
    body: listTasks,
  });
  expect(response.status).toBe(200);
  expect(toExpress).toBe(before);
  expect(response.headers.get('x-added-middleware')).toBe('ListTasks');
});

it('runs on Express', async () => {
  const before = toExpress;
  const response = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { ...V1, Origin: 'http://example.test' },
    body: listTasks,
  });
  expect(response.status).toBe(200);
  expect(toExpress).toBe(before + 1);
  expect(response.headers.get('x-added-middleware')).toBe('ListTasks');
});
