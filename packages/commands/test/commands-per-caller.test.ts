/**
 * SEMANTICS §9: commands per caller. A command with an `allowed` rule is, for
 * anyone it does not allow, not registered: their text reaches the agent as an
 * ordinary message, the public card leaves it out, and only the extended card
 * of a caller it allows lists it.
 */
import type { User } from '@a2a-js/sdk/server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoExecutor } from '../examples/echo-executor.js';
import { readCommands } from '../src/client/index.js';
import { readCompletion } from '../src/client/completion.js';
import { commandsRoutes } from '../src/express/index.js';
import { createCommandsServer } from '../src/server/create-server.js';
import { cardWith } from './support/cards.js';
import { listen, rest, rpc, userText, type Listening } from 'a2a-testing/http';

class NamedUser implements User {
  constructor(readonly userName: string) {}
  get isAuthenticated() {
    return true;
  }
}

const ANONYMOUS: User = { userName: '', isAuthenticated: false };

let agent: Listening;
beforeAll(async () => {
  const server = createCommandsServer({
    agentCard: cardWith('http://127.0.0.1', ['JSONRPC', 'HTTP+JSON'], { extendedAgentCard: true }),
    executor: echoExecutor(),
    completion: { endpoint: 'http://127.0.0.1/a2a/complete' },
  });
  server.registry.register({ name: 'ping', description: 'Answers pong', run: () => 'pong' });
  server.registry.register({
    name: 'reload',
    description: 'Reloads the configuration',
    arguments: [{ name: 'part', choices: [{ value: 'keys' }] }],
    allowed: (caller) => caller.name === 'alice',
    run: () => 'reloaded',
  });
  server.registry.register({
    name: 'deploy',
    description: 'Deploys',
    allowed: (caller) => caller.name === 'bob',
    run: () => 'deployed',
  });
  // The header stands in for real authentication; no header is an anonymous caller.
  const userBuilder = async (req: express.Request) => {
    const name = req.header('x-user');
    return name ? new NamedUser(name) : ANONYMOUS;
  };
  agent = await listen(express().use(commandsRoutes(server, { userBuilder })));
});
afterAll(() => agent.close());

const as = (user: string) => ({ headers: { 'x-user': user } });

async function extendedCommands(user: string): Promise<string[]> {
  const { body } = await rpc(agent.baseUrl, 'GetExtendedAgentCard', {}, as(user));
  expect(body.error).toBeUndefined();
  return readCommands(body.result).map((c) => c.name);
}

describe('the cards', () => {
  it('the public card lists only the commands everyone may run', async () => {
    const card = await (await fetch(`${agent.baseUrl}/.well-known/agent-card.json`)).json();
    expect(readCommands(card).map((c) => c.name)).toEqual(['ping']);
    expect(JSON.stringify(card)).not.toMatch(/reload|deploy/);
  });

  it("each caller's extended card lists exactly their commands, on JSON-RPC and REST", async () => {
    expect(await extendedCommands('alice')).toEqual(['ping', 'reload']);
    expect(await extendedCommands('bob')).toEqual(['ping', 'deploy']);
    expect(await extendedCommands('carol')).toEqual(['ping']);
    const { status, body } = await rest(agent.baseUrl, '/extendedAgentCard', undefined, as('bob'));
    expect(status).toBe(200);
    expect(readCommands(body).map((c) => c.name)).toEqual(['ping', 'deploy']);
  });

  it("the completion entry follows the same list: a caller's own arguments only", async () => {
    const { body } = await rpc(agent.baseUrl, 'GetExtendedAgentCard', {}, as('alice'));
    expect(readCompletion(body.result)?.commands.map((c) => c.name)).toEqual(['reload']);
    const { body: bobs } = await rpc(agent.baseUrl, 'GetExtendedAgentCard', {}, as('bob'));
    expect(JSON.stringify(bobs.result)).not.toMatch(/reload/);
  });

  it('an anonymous caller reads the public card', async () => {
    const { body } = await rpc(agent.baseUrl, 'GetExtendedAgentCard', {});
    expect(readCommands(body.result).map((c) => c.name)).toEqual(['ping']);
  });
});

describe('running them', () => {
  it('a command runs for a caller it allows', async () => {
    const { body } = await rpc(
      agent.baseUrl,
      'SendMessage',
      { message: userText('/reload') },
      as('alice'),
    );
    expect(body.result.task.status.message.metadata).toEqual({ command: 'reload' });
    expect(body.result.task.status.message.parts[0].text).toBe('reloaded');
  });

  it('for anyone else its text is an ordinary message: the agent gets it, nothing runs', async () => {
    for (const user of ['bob', '']) {
      const { body } = await rpc(
        agent.baseUrl,
        'SendMessage',
        { message: userText('/reload keys') },
        user ? as(user) : {},
      );
      const task = body.result.task;
      const replies = [task.status.message, ...task.history].filter(Boolean);
      expect(replies.some((m: any) => m.metadata?.command)).toBe(false);
      expect(JSON.stringify(task)).toContain('You said: /reload keys');
      expect(JSON.stringify(task)).not.toContain('reloaded');
    }
  });

  it("a caller's completion request for a command not theirs is an unknown command", async () => {
    const ask = (user: string) =>
      fetch(`${agent.baseUrl}/a2a/complete`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-user': user },
        body: JSON.stringify({ command: 'reload', argument: { index: 0, value: '' } }),
      });
    expect((await ask('alice')).status).toBe(200);
    const refused = await ask('bob');
    expect(refused.status).toBe(404);
    expect((await refused.json()).error.code).toBe('unknown-command');
  });
});
