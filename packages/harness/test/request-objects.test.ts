/**
 * The harness's server makes each request and response as Express's from the
 * start, so that neither Express nor the JSON-RPC lane changes an object's
 * prototype while it handles it (see src/serve/express-objects.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';

let harness: TestHarness;
/** Whether each request and its response had Express's prototypes when the server made them. */
const arrived: { request: boolean; response: boolean; url: string }[] = [];

const inChain = (object: object, prototype: object) =>
  Object.prototype.isPrototypeOf.call(prototype, object);

beforeAll(async () => {
  harness = await startHarness({ config: { offline: { latencyMs: 5 } } });
  harness.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    arrived.push({
      url: req.url ?? '',
      request: inChain(req, express.request),
      response: inChain(res, express.response),
    });
  });
});

afterAll(async () => {
  await harness?.stop();
});

describe("the server's request and response objects", () => {
  it('are made as Express ones, for the JSON-RPC lane and for the routes Express serves', async () => {
    const sent = await rpc(harness.url, 'SendMessage', { message: userText('/help') });
    expect(sent.status).toBe(200);
    const card = await fetch(`${harness.url}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    expect(arrived.map((each) => each.url)).toEqual([
      '/a2a/jsonrpc',
      '/.well-known/agent-card.json',
    ]);
    for (const each of arrived) expect(each).toMatchObject({ request: true, response: true });
  });
});
