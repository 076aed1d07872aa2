/**
 * A client built on the SDK's own ClientFactory, with this library's client
 * helpers, against the example agent over real HTTP: JSON-RPC and HTTP+JSON.
 */
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type Client,
} from '@a2a-js/sdk/client';
import type { StreamResponse, Task } from '@a2a-js/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commandOf,
  complete,
  isCommandReply,
  readCommands,
  replyData,
  replyText,
  sendText,
  streamText,
  taskRefOf,
} from '../src/client/index.js';
import { startExampleAgent, type RunningAgent } from './support/example-agent.js';

let agent: RunningAgent;
beforeAll(async () => {
  agent = await startExampleAgent(0);
});
afterAll(() => agent.close());

async function clientOver(transport: 'JSONRPC' | 'HTTP+JSON'): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
      preferredTransports: [transport],
    }),
  );
  return factory.createFromUrl(agent.baseUrl);
}

async function collect(stream: AsyncGenerator<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe.each(['JSONRPC', 'HTTP+JSON'] as const)('over %s', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await clientOver(transport);
  });

  it('reads the commands from the card and completes "/ec" to /echo', async () => {
    const card = await client.getAgentCard();
    const commands = readCommands(card);
    expect(commands.map((c) => c.name)).toEqual(['help', 'echo', 'boom', 'count', 'set', 'spawn']);
    expect(complete('/ec', commands)[0]?.command.name).toBe('echo');
  });

  it('sendText runs a command and the Task carries a tagged reply', async () => {
    const result = (await sendText(client, '/echo from the SDK client')) as Task;
    expect(commandOf(result)).toBe('echo');
    const reply = result.status!.message!;
    expect(isCommandReply(reply)).toBe(true);
    expect(replyText(reply)).toBe('from the SDK client');
    expect(replyData(reply)).toEqual({ echoed: 'from the SDK client' });
  });

  it('an ordinary message is not a command reply', async () => {
    const result = (await sendText(client, 'just chatting')) as Task;
    expect(isCommandReply(result)).toBe(false);
    expect(replyText(result.status!.message)).toBe('You said: just chatting');
  });

  it('streamText yields the snapshot and then the tagged reply update', async () => {
    const events = await collect(streamText(client, '/help'));
    expect(events.map((e) => e.payload?.$case)).toEqual(['task', 'statusUpdate']);
    expect(isCommandReply(events[1])).toBe(true);
    expect(commandOf(events[1])).toBe('help');
    expect(isCommandReply(events[0])).toBe(false);
  });

  it('taskRefOf reads the sub-task a command created', async () => {
    const first = (await sendText(client, 'hello')) as Task;
    const spawned = (await sendText(client, '/spawn summarise', { taskId: first.id })) as Task;
    const ref = taskRefOf(spawned);
    expect(ref).toBeDefined();
    const sub = await client.getTask({ tenant: '', id: ref!, historyLength: undefined });
    expect(sub.contextId).toBe(first.contextId);
  });
});
