import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ownErrors, ownNotFound } from './own-refusals.js';

const logger = pino({ level: 'silent' });
const logged = vi.spyOn(logger, 'error');
let server: Server;
let url: string;

beforeAll(async () => {
  const app = express();
  app.get('/broken', () => {
    throw new Error('a secret detail');
  });
  app.post('/read', express.json(), (_req, res) => {
    res.json({ ok: true });
  });
  app.use(ownNotFound, ownErrors(logger));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

it('a failure is 500 internal-error, logged, with no detail for the client', async () => {
  const response = await fetch(`${url}/broken`);
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({
    error: { code: 'internal-error', message: expect.stringContaining('log') },
  });
  expect(logged).toHaveBeenCalledOnce();
});

it("a client's fault keeps its status: bad-request, saying why", async () => {
  const response = await fetch(`${url}/read`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{',
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({
    error: {
      code: 'bad-request',
      message: expect.stringMatching(/^The request cannot be answered: /),
    },
  });
});

it('an unknown path is not-found', async () => {
  expect(await (await fetch(`${url}/nothing?x=1`)).json()).toEqual({
    error: { code: 'not-found', message: 'There is nothing at GET /nothing.' },
  });
});
