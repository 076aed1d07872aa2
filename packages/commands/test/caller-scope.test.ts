/** SEMANTICS §5: a caller who may not see a task gets the protocol's error, commands included. */
import type { User } from '@a2a-js/sdk/server';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExampleAgent } from '../examples/agent.js';
import { commandsRoutes } from '../src/express/index.js';
import { listen, userText, type Listening } from 'a2a-testing/http';

class NamedUser implements User {
  constructor(readonly userName: string) {}
  get isAuthenticated() {
    return true;
  }
}

let agent: Listening;
beforeAll(async () => {
  const { server } = createExampleAgent('http://127.0.0.1');
  server.registry.register({
    name: 'whoami',
    description: 'Names the caller',
    run: ({ caller }) => `${caller.name} (${caller.authenticated ? 'authenticated' : 'anonymous'})`,
  });
  // The SDK's stores scope tasks by user name; the header stands in for real authentication.
  const userBuilder = async (req: express.Request) =>
    new NamedUser(req.header('x-user') ?? 'anonymous');
  agent = await listen(express().use(commandsRoutes(server, { userBuilder })));
});
afterAll(() => agent.close());

async function as(user: string, method: string, params: unknown) {
  const response = await fetch(`${agent.baseUrl}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', 'x-user': user },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: any; error?: { code: number } };
}

it("§5: a command on another caller's task fails as if the task did not exist", async () => {
  const mine = await as('alice', 'SendMessage', { message: userText('/echo private') });
  const taskId = mine.result.task.id;
  const theirs = await as('bob', 'SendMessage', { message: userText('/help', { taskId }) });
  expect(theirs.error?.code).toBe(-32001);
  expect((await as('bob', 'GetTask', { id: taskId })).error?.code).toBe(-32001);
  const again = await as('alice', 'SendMessage', { message: userText('/help', { taskId }) });
  expect(again.result.task.status.message.metadata).toEqual({ command: 'help' });
});

it('a command handler learns who called it', async () => {
  const { result } = await as('carol', 'SendMessage', { message: userText('/whoami') });
  expect(result.task.status.message.parts[0].text).toBe('carol (authenticated)');
});
