/**
 * `onCommandDone`: each command the command path runs is reported once, by
 * the name it parsed, as replied or refused; what is not a command is not.
 */
import type { SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { expect, it } from 'vitest';
import { echoExecutor } from '../../examples/echo-executor.js';
import { cardWith } from '../../test/support/cards.js';
import { newMessage, textPart, USER } from '../message.js';
import { CommandRegistry } from '../registry.js';
import { createCommandsServer } from './create-server.js';
import type { CommandDone } from './dispatch.js';

const context = new ServerCallContext();

/** A server with `/echo`, and each `onCommandDone` call it has made. */
function serverReporting() {
  const done: Array<[string, CommandDone, number]> = [];
  const registry = new CommandRegistry();
  registry.register({ name: 'echo', description: 'Repeat the arguments', run: ({ args }) => args });
  const { requestHandler } = createCommandsServer({
    agentCard: cardWith('http://localhost', ['JSONRPC']),
    executor: echoExecutor(),
    registry,
    argumentChars: 10,
    onCommandDone: (command, outcome, seconds) => done.push([command, outcome, seconds]),
  });
  /** The calls so far, as command and outcome. */
  const reported = () => done.map(([command, outcome]) => [command, outcome]);
  return { requestHandler, done, reported };
}

const request = (text: string, taskId?: string): SendMessageRequest => ({
  tenant: '',
  message: newMessage({ role: USER, parts: [textPart(text)], taskId }),
  configuration: undefined,
  metadata: undefined,
});

async function drain(stream: AsyncGenerator<StreamResponse>): Promise<unknown> {
  try {
    for await (const event of stream) void event;
    return undefined;
  } catch (error) {
    return error;
  }
}

it('a command answered reports replied, with the seconds it took', async () => {
  const { requestHandler, done } = serverReporting();
  const task = (await requestHandler.sendMessage(request('/echo hi'), context)) as Task;
  expect(task.status?.message).toBeDefined();
  expect(done).toHaveLength(1);
  const [[command, outcome, seconds]] = done as [[string, CommandDone, number]];
  expect([command, outcome]).toEqual(['echo', 'replied']);
  expect(seconds).toBeGreaterThanOrEqual(0);
  expect(seconds).toBeLessThan(60);
});

it('a command refused reports refused: arguments over the limit, or a task that is not there', async () => {
  const { requestHandler, reported } = serverReporting();
  await expect(requestHandler.sendMessage(request('/echo 0123456789A'), context)).rejects.toThrow();
  await expect(
    requestHandler.sendMessage(request('/echo hi', 'no-such-task'), context),
  ).rejects.toThrow();
  expect(reported()).toEqual([
    ['echo', 'refused'],
    ['echo', 'refused'],
  ]);
});

it('a streamed command reports once its stream has ended, replied or refused', async () => {
  const { requestHandler, done, reported } = serverReporting();
  const stream = requestHandler.sendMessageStream(request('/echo hi'), context);
  await stream.next();
  expect(done).toEqual([]);
  expect(await drain(stream)).toBeUndefined();
  expect(
    await drain(requestHandler.sendMessageStream(request('/echo 0123456789A'), context)),
  ).toBeInstanceOf(Error);
  expect(reported()).toEqual([
    ['echo', 'replied'],
    ['echo', 'refused'],
  ]);
});

it('an ordinary message and an unknown command are not commands: nothing is reported', async () => {
  const { requestHandler, done } = serverReporting();
  await requestHandler.sendMessage(request('hello'), context);
  await requestHandler.sendMessage(request('/nosuch thing'), context);
  await drain(requestHandler.sendMessageStream(request('hello again'), context));
  expect(done).toEqual([]);
});
