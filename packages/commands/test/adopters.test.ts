/**
 * The library as an adopter meets it: what the README promises a
 * client reads, what a refusal says to a program, and what the routes serve,
 * each against a real agent over loopback HTTP.
 */
import type { StreamResponse, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { echoExecutor } from '../examples/echo-executor.js';
import { CommandError } from '../src/errors.js';
import {
  commandOf,
  isCommandReply,
  isReplyError,
  replyData,
  replyErrorOf,
  replyText,
  sendText,
  streamText,
} from '../src/client/index.js';
import { commandsRoutes } from '../src/express/index.js';
import { CommandRegistry } from '../src/registry.js';
import { createCommandsServer } from '../src/server/create-server.js';
import { startExampleAgent, type RunningAgent } from './support/example-agent.js';
import { cardWith, type Binding } from './support/cards.js';
import { listen, rpc, userText, type Listening } from 'a2a-testing/http';

let agent: RunningAgent;
beforeAll(async () => {
  agent = await startExampleAgent(0);
});
afterAll(() => agent.close());

describe('item 1: the readers accept what the README says they accept', () => {
  it('replyText and replyData read the Task that sendText returns', async () => {
    const client = await new ClientFactory().createFromUrl(agent.baseUrl);
    const result = await sendText(client, '/echo hi');
    expect(isCommandReply(result)).toBe(true);
    expect(commandOf(result)).toBe('echo');
    expect(replyText(result)).toBe('hi');
    expect(replyData(result)).toEqual({ echoed: 'hi' });
  });

  it('replyText reads the reply of each stream event that carries one', async () => {
    const client = await new ClientFactory().createFromUrl(agent.baseUrl);
    const texts: string[] = [];
    for await (const event of streamText(client, '/echo streamed'))
      if (isCommandReply(event)) texts.push(replyText(event));
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((text) => text === 'streamed')).toBe(true);
  });

  it('isCommandReply is a type guard: a Task narrows to one whose status has the reply', async () => {
    const client = await new ClientFactory().createFromUrl(agent.baseUrl);
    const result = await sendText(client, '/help');
    expect('id' in result).toBe(true);
    const task = result as Task;
    if (!isCommandReply(task)) throw new Error('not a command reply');
    // Compiles only because the guard narrows: status and its message are no longer optional.
    expect(task.status.message.metadata).toEqual({ command: 'help' });
    expectTypeOf(task.status.message.parts).toBeArray();
    const event: StreamResponse = { payload: { $case: 'task', value: task } };
    if (isCommandReply(event)) expectTypeOf(event).toExtend<StreamResponse>();
    // The false branch keeps the type: it must not narrow to never.
    const update = {} as TaskStatusUpdateEvent;
    if (!isCommandReply(update)) expectTypeOf(update).toEqualTypeOf<TaskStatusUpdateEvent>();
    else expectTypeOf(update).toExtend<TaskStatusUpdateEvent>();
  });
});

describe('item 5: a refusal is machine-readable, and its metadata stays {command}', () => {
  it('a CommandError reply carries {"error": {code, message}} beside the same text', async () => {
    const client = await new ClientFactory().createFromUrl(agent.baseUrl);
    const task = await sendText(client, '/count many');
    const text = '"many" is not a whole number; try /count 3';
    expect(replyText(task)).toBe(text);
    expect(replyData(task)).toEqual({ error: { code: 'command-error', message: text } });
    expect(replyErrorOf(task)).toEqual({ code: 'command-error', message: text });
    expect((task as Task).status?.message?.metadata).toEqual({ command: 'count' });
  });

  it('a CommandError may name its own kebab-case code; a malformed one falls back', () => {
    expect(new CommandError('no', { code: 'unknown-model' }).code).toBe('unknown-model');
    expect(new CommandError('no', { code: 'Unknown Model' }).code).toBe('command-error');
    expect(new CommandError('no').code).toBe('command-error');
  });

  it('a handler that fails unexpectedly is a refusal too, with code command-failed', async () => {
    const client = await new ClientFactory().createFromUrl(agent.baseUrl);
    const task = await sendText(client, '/boom');
    expect(replyErrorOf(task)?.code).toBe('command-failed');
    expect(replyErrorOf(task)?.message).toBe(replyText(task));
    expect(replyText(task)).not.toMatch(/secret|ENOENT/);
  });

  it('a successful reply has no error, whatever its data', async () => {
    const client = await new ClientFactory().createFromUrl(agent.baseUrl);
    expect(replyErrorOf(await sendText(client, '/echo fine'))).toBeUndefined();
    expect(replyErrorOf(await sendText(client, '/count 2'))).toBeUndefined();
  });

  it('an ordinary answer is never read as a refusal, even with an error-shaped data part', () => {
    const answer = {
      role: 'ROLE_AGENT',
      parts: [{ text: 'x' }, { data: { error: { code: 'x', message: 'x' } } }],
    };
    expect(replyErrorOf(answer)).toBeUndefined();
    expect(replyErrorOf({ ...answer, metadata: { command: 'x' } })).toEqual({
      code: 'x',
      message: 'x',
    });
  });

  it('isReplyError checks the shape', () => {
    expect(isReplyError({ code: 'missing-argument', message: 'm' })).toBe(true);
    for (const bad of [null, 'x', {}, { code: 'x' }, { code: 'Bad Code', message: 'm' }]) {
      expect(isReplyError(bad)).toBe(false);
    }
  });

  it('a required <argument> left out is refused with missing-argument; the handler never runs', async () => {
    const before = agent.executorSaw.length;
    const response = await rpc(agent.baseUrl, 'SendMessage', { message: userText('/spawn') });
    const task = response.body.result.task;
    const text = '/spawn needs an argument: type /spawn <prompt>.';
    expect(task.status.message.parts).toEqual([
      { text, mediaType: 'text/plain' },
      {
        data: { error: { code: 'missing-argument', message: text } },
        mediaType: 'application/json',
      },
    ]);
    expect(task.status.message.metadata).toEqual({ command: 'spawn' });
    // /spawn would have created a sub-task and linked it from the parent.
    expect(task.metadata?.['a2a-commands']).toBeUndefined();
    expect(agent.executorSaw.length).toBe(before);
  });

  it('an optional [<argument>] or no hint at all lets the handler run without arguments', async () => {
    const registry = new CommandRegistry();
    const ran: string[] = [];
    for (const [name, argument_hint] of [
      ['opt', '[<model>]'],
      ['none', ''],
      ['free', 'text'],
    ] as const) {
      registry.register({
        name,
        description: name,
        argument_hint,
        run: () => {
          ran.push(name);
          return 'ran';
        },
      });
    }
    const server = createCommandsServer({
      agentCard: cardWith('http://127.0.0.1', ['JSONRPC']),
      executor: echoExecutor(),
      registry,
    });
    const listening = await listen(
      express().use(commandsRoutes(server, { userBuilder: UserBuilder.noAuthentication })),
    );
    try {
      for (const name of ['opt', 'none', 'free']) {
        const response = await rpc(listening.baseUrl, 'SendMessage', {
          message: userText(`/${name}`),
        });
        expect(replyText(response.body.result.task)).toBe('ran');
      }
      expect(ran).toEqual(['opt', 'none', 'free']);
    } finally {
      await listening.close();
    }
  });
});

describe('item 2: the routes never choose "no authentication" for the agent', () => {
  it('commandsRoutes without a user builder throws, naming the option', () => {
    const server = createCommandsServer({
      agentCard: cardWith('http://127.0.0.1', ['JSONRPC']),
      executor: echoExecutor(),
    });
    // @ts-expect-error: the options, and their userBuilder, are required
    expect(() => commandsRoutes(server)).toThrow(/userBuilder.*UserBuilder\.noAuthentication/);
    // @ts-expect-error: userBuilder is required
    expect(() => commandsRoutes(server, { jsonRpcPath: '/rpc' })).toThrow(TypeError);
  });

  it("the agent's own user builder decides, and can turn a caller away", async () => {
    const server = createCommandsServer({
      agentCard: cardWith('http://127.0.0.1', ['JSONRPC']),
      executor: echoExecutor(),
    });
    server.registry.register({
      name: 'whoami',
      description: 'Names the caller',
      run: ({ caller }) => `${caller.name} ${caller.authenticated}`,
    });
    const app = express();
    // An agent with its own authentication in front, as the quick start now keeps it.
    app.use((req, res, next) => {
      if (req.path.startsWith('/a2a') && req.header('authorization') !== 'Bearer k')
        res.status(401).end();
      else next();
    });
    app.use(
      commandsRoutes(server, {
        userBuilder: async () => ({ userName: 'alice', isAuthenticated: true }),
      }),
    );
    const listening = await listen(app);
    try {
      const refused = await fetch(`${listening.baseUrl}/a2a/jsonrpc`, { method: 'POST' });
      expect(refused.status).toBe(401);
      const response = await rpc(
        listening.baseUrl,
        'SendMessage',
        { message: userText('/whoami') },
        { headers: { authorization: 'Bearer k' } },
      );
      expect(replyText(response.body.result.task)).toBe('alice true');
    } finally {
      await listening.close();
    }
  });
});

describe('item 3: each binding is served only when the card declares it', () => {
  async function serve(bindings: Binding[]): Promise<Listening> {
    const server = createCommandsServer({
      agentCard: cardWith('http://127.0.0.1', bindings),
      executor: echoExecutor(),
    });
    server.registry.register({ name: 'ping', description: 'Answers pong', run: () => 'pong' });
    return listen(
      express().use(commandsRoutes(server, { userBuilder: UserBuilder.noAuthentication })),
    );
  }

  const restSend = (baseUrl: string) =>
    fetch(`${baseUrl}/a2a/rest/message:send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ message: userText('/ping') }),
    });

  it('a JSON-RPC-only card: JSON-RPC answers, /a2a/rest is not there (404)', async () => {
    const listening = await serve(['JSONRPC']);
    try {
      const response = await rpc(listening.baseUrl, 'SendMessage', { message: userText('/ping') });
      expect(replyText(response.body.result.task)).toBe('pong');
      expect((await restSend(listening.baseUrl)).status).toBe(404);
    } finally {
      await listening.close();
    }
  });

  it('an HTTP+JSON-only card: HTTP+JSON answers, /a2a/jsonrpc is not there (404)', async () => {
    const listening = await serve(['HTTP+JSON']);
    try {
      const response = await restSend(listening.baseUrl);
      expect(response.status).toBe(200);
      expect(replyText(await response.json())).toBe('pong');
      const rpcResponse = await fetch(`${listening.baseUrl}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(rpcResponse.status).toBe(404);
    } finally {
      await listening.close();
    }
  });
});
