/** Where `scopedKeyFetch` puts the key, against a real HTTP server on loopback. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiKeyRefusedError,
  asksForApiKey,
  requiresApiKey,
  scopedKeyFetch,
} from './api-key-scope.js';

let server: Server;
let url = '';
const seen: Array<string | undefined> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.headers.authorization);
    response.statusCode = request.headers.authorization === 'Bearer right' ? 200 : 401;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const card = (requirements: Array<Record<string, unknown>>) =>
  ({
    securityRequirements: requirements.map((schemes) => ({ schemes })),
  }) as unknown as AgentCard;
const asking = card([{ bearer: { list: [] } }]);

async function authorizationSent(scope: Parameters<typeof scopedKeyFetch>[0], to = url) {
  seen.length = 0;
  await scopedKeyFetch(scope)(`${to}/rpc`, { method: 'POST', body: '{}' }).catch(() => undefined);
  return seen[0];
}

describe('scopedKeyFetch', () => {
  it('sends the key to the agent that asks for one, on its origin', async () => {
    const scope = { apiKey: 'right', agentUrl: url, card: () => asking };
    expect(await authorizationSent(scope)).toBe('Bearer right');
  });

  it('sends no key before the card is read, nor to an agent that asks for none', async () => {
    expect(await authorizationSent({ apiKey: 'right', agentUrl: url, card: () => undefined })).toBe(
      undefined,
    );
    expect(await authorizationSent({ apiKey: 'right', agentUrl: url, card: () => card([]) })).toBe(
      undefined,
    );
  });

  it('sends no key to another origin, even one the card names', async () => {
    const scope = { apiKey: 'right', agentUrl: 'http://agent.example', card: () => asking };
    expect(await authorizationSent(scope)).toBe(undefined);
  });

  it('turns HTTP 401 into ApiKeyRefusedError, saying whether a key was sent', async () => {
    const wrong = scopedKeyFetch({ apiKey: 'wrong', agentUrl: url, card: () => asking });
    const refused = await wrong(`${url}/rpc`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiKeyRefusedError);
    expect(refused).toMatchObject({ sentKey: true, message: 'The agent refused the API key.' });
    expect(String((refused as Error).message)).not.toContain('wrong');
  });
});

describe('what a card asks', () => {
  it('a requirement naming a scheme asks for a key; one naming none makes it optional', () => {
    const optional = card([{ bearer: { list: [] } }, {}]);
    expect([asksForApiKey(asking), requiresApiKey(asking)]).toEqual([true, true]);
    expect([asksForApiKey(optional), requiresApiKey(optional)]).toEqual([true, false]);
    expect([asksForApiKey(card([])), requiresApiKey(card([]))]).toEqual([false, false]);
  });
});
