import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentKeyFetch, ApiKeyRefusedError, asksForApiKey, requiresApiKey } from './agent-key.js';

interface Recorder {
  url: string;
  seen: IncomingHttpHeaders[];
  server: Server;
}

/** A loopback server that records each request's headers; `/refuse` answers 401. */
async function recorder(): Promise<Recorder> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.statusCode = req.url === '/refuse' ? 401 : 200;
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let agent: Recorder;
let elsewhere: Recorder;

beforeAll(async () => {
  agent = await recorder();
  elsewhere = await recorder();
});

afterAll(() => {
  agent.server.close();
  elsewhere.server.close();
});

describe('agentKeyFetch', () => {
  it("sends the key to the agent's origin only, never to another host the card names", async () => {
    const send = agentKeyFetch({ apiKey: 'sk-test', agentUrl: `${agent.url}/` });
    await send(`${agent.url}/a2a/jsonrpc`, { method: 'POST', body: '{}' });
    await send(new URL(`${elsewhere.url}/a2a/jsonrpc`), { method: 'POST', body: '{}' });
    expect(agent.seen.at(-1)!.authorization).toBe('Bearer sk-test');
    expect(elsewhere.seen.at(-1)!.authorization).toBeUndefined();
  });

  it('sends no key when there is none', async () => {
    await agentKeyFetch({ apiKey: undefined, agentUrl: agent.url })(`${agent.url}/x`);
    expect(agent.seen.at(-1)!.authorization).toBeUndefined();
  });

  it('turns 401 into ApiKeyRefusedError, saying whether a key was sent, without the key', async () => {
    const keyed = agentKeyFetch({ apiKey: 'sk-secret', agentUrl: agent.url });
    const refused = await keyed(`${agent.url}/refuse`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiKeyRefusedError);
    expect((refused as ApiKeyRefusedError).sentKey).toBe(true);
    expect(String((refused as Error).message)).not.toContain('sk-secret');
    const bare = agentKeyFetch({ apiKey: undefined, agentUrl: agent.url });
    const needed = await bare(`${agent.url}/refuse`).catch((error: unknown) => error);
    expect((needed as ApiKeyRefusedError).sentKey).toBe(false);
  });
});

describe('what the card asks', () => {
  const bearer = { schemes: { bearer: { list: [] } } };
  it('no requirement: no key wanted', () => {
    expect(asksForApiKey({ securityRequirements: [] })).toBe(false);
    expect(requiresApiKey({ securityRequirements: [] })).toBe(false);
  });
  it('a scheme in every requirement: a key is needed', () => {
    expect(asksForApiKey({ securityRequirements: [bearer] })).toBe(true);
    expect(requiresApiKey({ securityRequirements: [bearer] })).toBe(true);
  });
  it('a requirement without a scheme beside one with it: wanted, not needed', () => {
    const open = { schemes: {} };
    expect(asksForApiKey({ securityRequirements: [bearer, open] })).toBe(true);
    expect(requiresApiKey({ securityRequirements: [bearer, open] })).toBe(false);
  });
});
