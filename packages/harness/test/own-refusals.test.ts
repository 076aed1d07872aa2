/**
 * The harness's own HTTP paths (not the A2A bindings, which answer in their
 * own shapes) refuse with one JSON body: `{"error": {"code", "message"}}`, a
 * kebab-case code for programs and a sentence for people. The server keeps
 * answering afterwards.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({
    apiKeys: new ApiKeys(parseApiKeyList('alice=alice-key-0123456789abcdef')),
    metricsToken: 'metrics-token-0123456789abcdef',
  });
});
afterAll(() => harness.stop());

async function refusal(method: string, path: string) {
  const response = await fetch(`${harness.url}${path}`, { method });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

it.each([
  ['GET', '/nope'],
  ['DELETE', '/healthz'],
  ['POST', '/.well-known/agent-card.json'],
  ['GET', '/a2a'],
])('%s %s: 404 not-found, naming what was asked', async (method, path) => {
  expect(await refusal(method, path)).toEqual({
    status: 404,
    body: { error: { code: 'not-found', message: `There is nothing at ${method} ${path}.` } },
  });
});

it('the refusals of /metrics and of the completion route have the same shape', async () => {
  for (const [method, path] of [
    ['GET', '/metrics'],
    ['POST', '/a2a/complete'],
  ] as const) {
    const { status, body } = await refusal(method, path);
    expect(status).toBe(401);
    expect(body).toEqual({
      error: { code: 'unauthenticated', message: expect.stringMatching(/^Unauthenticated: /) },
    });
  }
});

it('keeps answering after them', async () => {
  await refusal('GET', '/nope');
  expect(await (await fetch(`${harness.url}/healthz`)).json()).toEqual({ ok: true });
});
