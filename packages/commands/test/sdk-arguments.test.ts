/**
 * An agent that used the SDK request handler's other
 * constructor arguments keeps them behind createCommandsServer. Push
 * notifications to a real webhook, a signed card, an extended card.
 */
import { generateAgentCardSignature, verifyAgentCardSignature, type AgentCard } from '@a2a-js/sdk';
import { DefaultPushNotificationSender, InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import { UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoExecutor } from '../examples/echo-executor.js';
import { readCommands } from '../src/client/index.js';
import { commandsRoutes } from '../src/express/index.js';
import { createCommandsServer, type CommandsServer } from '../src/server/create-server.js';
import { cardWith } from './support/cards.js';
import { listen, rpc, userText, waitFor, type Listening } from 'a2a-testing/http';

describe('push notifications pass through createCommandsServer', () => {
  let webhook: Listening;
  let agent: Listening;
  const pushed: Array<{ token: string | undefined; body: string }> = [];

  beforeAll(async () => {
    const hook = express().use(express.text({ type: '*/*' }));
    hook.post('/hook', (req, res) => {
      pushed.push({ token: req.header('x-a2a-notification-token'), body: req.body as string });
      res.status(200).end();
    });
    webhook = await listen(hook);
    const pushNotificationStore = new InMemoryPushNotificationStore();
    const server = createCommandsServer({
      agentCard: cardWith('http://127.0.0.1', ['JSONRPC'], { pushNotifications: true }),
      executor: echoExecutor(),
      pushNotificationStore,
      pushNotificationSender: new DefaultPushNotificationSender(pushNotificationStore),
    });
    server.registry.register({ name: 'ping', description: 'Answers pong', run: () => 'pong' });
    agent = await listen(
      express().use(commandsRoutes(server, { userBuilder: UserBuilder.noAuthentication })),
    );
  });
  afterAll(async () => {
    await agent.close();
    await webhook.close();
  });

  it("an ordinary message's turn is pushed to the webhook its request names", async () => {
    const response = await rpc(agent.baseUrl, 'SendMessage', {
      message: userText('hello'),
      configuration: {
        taskPushNotificationConfig: { url: `${webhook.baseUrl}/hook`, token: 'secret-token' },
      },
    });
    expect(response.body.error).toBeUndefined();
    const taskId = response.body.result.task.id as string;
    const push = await waitFor(
      async () => pushed.find((p) => p.body.includes(taskId)),
      'a push for the task',
    );
    expect(push.token).toBe('secret-token');
  });

  it('the push configuration methods reach the SDK store', async () => {
    const created = await rpc(agent.baseUrl, 'SendMessage', { message: userText('/ping') });
    const taskId = created.body.result.task.id as string;
    const set = await rpc(agent.baseUrl, 'CreateTaskPushNotificationConfig', {
      taskId,
      url: `${webhook.baseUrl}/hook`,
      token: 't2',
    });
    expect(set.body.error).toBeUndefined();
    const listed = await rpc(agent.baseUrl, 'ListTaskPushNotificationConfigs', { taskId });
    expect(listed.body.result.configs.map((c: { url: string }) => c.url)).toEqual([
      `${webhook.baseUrl}/hook`,
    ]);
  });
});

describe('a card signer signs every version of the card', () => {
  let agent: Listening;
  let server: CommandsServer;
  let verify: (card: AgentCard) => Promise<void>;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    verify = verifyAgentCardSignature(async () => publicKey);
    server = createCommandsServer({
      agentCard: cardWith('http://127.0.0.1', ['JSONRPC'], { extendedAgentCard: true }),
      executor: echoExecutor(),
      agentCardSignatureGenerator: generateAgentCardSignature(privateKey, {
        alg: 'ES256',
        kid: 'test-key',
        typ: 'JOSE',
      }),
      extendedAgentCardProvider: async () => ({
        ...cardWith('http://127.0.0.1', ['JSONRPC']),
        name: 'extended',
      }),
    });
    server.registry.register({ name: 'ping', description: 'Answers pong', run: () => 'pong' });
    agent = await listen(
      express().use(commandsRoutes(server, { userBuilder: UserBuilder.noAuthentication })),
    );
  });
  afterAll(() => agent.close());

  async function servedCard(): Promise<AgentCard> {
    const response = await fetch(`${agent.baseUrl}/.well-known/agent-card.json`);
    return (await response.json()) as AgentCard;
  }

  it('the served card carries a signature that verifies, and lists the commands', async () => {
    const card = await servedCard();
    expect(card.signatures).toHaveLength(1);
    await expect(verify(card)).resolves.toBeUndefined();
    expect(readCommands(card).map((c) => c.name)).toEqual(['ping']);
  });

  it('a command registered later is served in a newly signed card', async () => {
    server.registry.register({ name: 'later', description: 'Registered later', run: () => '' });
    const card = await servedCard();
    expect(readCommands(card).map((c) => c.name)).toEqual(['ping', 'later']);
    await expect(verify(card)).resolves.toBeUndefined();
    const fromHandler = await server.requestHandler.getAgentCard();
    expect(readCommands(fromHandler).map((c) => c.name)).toEqual(['ping', 'later']);
    await expect(verify(fromHandler)).resolves.toBeUndefined();
  });

  it('a tampered card fails the check: the signature covers the commands', async () => {
    const card = await servedCard();
    const tampered = JSON.parse(JSON.stringify(card).replace('Answers pong', 'Answers ping'));
    await expect(verify(tampered)).rejects.toThrow();
  });

  it('the extended card provider is used by GetExtendedAgentCard', async () => {
    const response = await rpc(agent.baseUrl, 'GetExtendedAgentCard', {});
    expect(response.body.error).toBeUndefined();
    expect(response.body.result.name).toBe('extended');
  });
});
