/**
 * Where `connect` sends the API key, against real agents on loopback: a card
 * and a JSON-RPC endpoint that records each call's Authorization header.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatError, connect } from './connection.js';

interface FakeHttpAgent {
  url: string;
  /** The Authorization header of each A2A call (undefined when none). */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

const servers: FakeHttpAgent[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function body(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return text;
}

/**
 * An agent whose card asks for a key or not, with its JSON-RPC endpoint at
 * `rpcUrl` (its own by default). With `key`, a call without that key gets 401.
 */
async function startAgent(
  options: { asksForKey?: boolean; key?: string; rpcUrl?: (own: string) => string } = {},
): Promise<FakeHttpAgent> {
  const authorizations: Array<string | undefined> = [];
  let url = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') {
        const rpc = options.rpcUrl ? options.rpcUrl(url) : `${url}/rpc`;
        const security = options.asksForKey
          ? {
              securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
              securityRequirements: [{ schemes: { bearer: { list: [] } } }],
            }
          : {};
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            name: 'Keyed agent',
            description: 'test',
            version: '1',
            supportedInterfaces: [{ url: rpc, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
            capabilities: { streaming: true },
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [],
            ...security,
          }),
        );
        return;
      }
      const call = JSON.parse(await body(request)) as { id: number };
      const authorization = request.headers.authorization;
      authorizations.push(authorization);
      if (options.key && authorization !== `Bearer ${options.key}`) {
        response.statusCode = 401;
        response.end('{"error":"unauthorized"}');
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: call.id,
          error: { code: -32001, message: 'Task not found' },
        }),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = {
    url,
    authorizations,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  servers.push(agent);
  return agent;
}

async function callWith(agentUrl: string, apiKey: string): Promise<void> {
  const connection = await connect(agentUrl, { apiKey });
  await connection.client
    .getTask({ tenant: '', id: 'some-task', historyLength: undefined })
    .catch(() => undefined);
}

describe('connect: where the API key goes', () => {
  it('not to an agent whose card asks for none', async () => {
    const agent = await startAgent();
    await callWith(agent.url, 'secret');
    expect(agent.authorizations.length).toBeGreaterThan(0);
    expect(agent.authorizations).toEqual(agent.authorizations.map(() => undefined));
  });

  it('not to another origin that the card names for its calls', async () => {
    const elsewhere = await startAgent();
    const agent = await startAgent({ asksForKey: true, rpcUrl: () => `${elsewhere.url}/rpc` });
    await callWith(agent.url, 'secret');
    expect(elsewhere.authorizations.length).toBeGreaterThan(0);
    expect(elsewhere.authorizations).toEqual(elsewhere.authorizations.map(() => undefined));
  });

  it('to the agent that asks for it, on its own origin', async () => {
    const agent = await startAgent({ asksForKey: true, key: 'secret' });
    await callWith(agent.url, 'secret');
    expect(agent.authorizations.length).toBeGreaterThan(0);
    expect(new Set(agent.authorizations)).toEqual(new Set(['Bearer secret']));
  });

  it('a wrong key is refused when connecting, not after the first message', async () => {
    const agent = await startAgent({ asksForKey: true, key: 'secret' });
    const connecting = connect(agent.url, { apiKey: 'wrong' });
    await expect(connecting).rejects.toThrow(ChatError);
    await expect(connecting).rejects.toThrow(`The agent at ${agent.url} refused the API key.`);
  });
});
