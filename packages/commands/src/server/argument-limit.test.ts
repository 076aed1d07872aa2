import {
  Role,
  type AgentCard,
  type Message,
  type SendMessageRequest,
  type Task,
} from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { echoExecutor } from '../../examples/echo-executor.js';
import { CommandRegistry } from '../registry.js';
import { codePointLength } from './argument-limit.js';
import { createCommandsServer } from './create-server.js';

const context = new ServerCallContext();

const card: AgentCard = {
  name: 'limits',
  description: 'argument limit tests',
  version: '1.0.0',
  supportedInterfaces: [],
  capabilities: { streaming: true, extensions: [] },
  provider: undefined,
  skills: [],
  signatures: [],
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};

function serverWith(argumentChars: number | undefined) {
  const registry = new CommandRegistry();
  registry.register({ name: 'echo', description: 'Repeat the arguments', run: ({ args }) => args });
  return createCommandsServer({
    agentCard: card,
    executor: echoExecutor(),
    registry,
    argumentChars,
  });
}

function request(text: string, taskId = ''): SendMessageRequest {
  const message: Message = {
    messageId: crypto.randomUUID(),
    taskId,
    contextId: '',
    role: Role.ROLE_USER,
    parts: [
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

const replyOf = (task: Task) => {
  const content = task.status?.message?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
};

async function refusal(promise: Promise<unknown>): Promise<RequestMalformedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RequestMalformedError);
  return error as RequestMalformedError;
}

describe('argumentChars: the longest arguments a command may have', () => {
  it('arguments of exactly the limit run the command', async () => {
    const { requestHandler } = serverWith(10);
    const task = (await requestHandler.sendMessage(request('/echo 0123456789'), context)) as Task;
    expect(replyOf(task)).toBe('0123456789');
  });

  it('one character more is refused with an error naming the command and the limit, and nothing is stored', async () => {
    const { requestHandler, store } = serverWith(10);
    const first = (await requestHandler.sendMessage(request('/echo hi'), context)) as Task;
    const before = await store.load(first.id, context);

    const error = await refusal(
      requestHandler.sendMessage(request('/echo 0123456789A', first.id), context),
    );
    expect(error.message).toBe(
      'The arguments of /echo are 11 characters long; the limit is 10 characters.',
    );
    const streamed = requestHandler.sendMessageStream(
      request('/echo 0123456789A', first.id),
      context,
    );
    await refusal(streamed.next());

    expect(await store.load(first.id, context)).toEqual(before);
  });

  it('counts characters, not UTF-16 units: an emoji is one', async () => {
    const { requestHandler } = serverWith(3);
    expect(codePointLength('😀😀😀')).toBe(3);
    const task = (await requestHandler.sendMessage(request('/echo 😀😀😀'), context)) as Task;
    expect(replyOf(task)).toBe('😀😀😀');
    const error = await refusal(requestHandler.sendMessage(request('/echo 😀😀😀😀'), context));
    expect(error.message).toContain('are 4 characters long; the limit is 3');
  });

  it('the separator and trailing whitespace are not arguments (SEMANTICS §2)', async () => {
    const { requestHandler } = serverWith(3);
    const task = (await requestHandler.sendMessage(
      request('/echo \t\n abc \n\t '),
      context,
    )) as Task;
    expect(replyOf(task)).toBe('abc');
  });

  it('ordinary messages are not commands and are not held to it', async () => {
    const { requestHandler } = serverWith(3);
    const result = (await requestHandler.sendMessage(request('/nope 0123456789'), context)) as Task;
    expect(result.status?.message?.metadata?.['command']).toBeUndefined();
    expect(result.history.map((m) => m.role)).toContain(Role.ROLE_USER);
  });

  it('is unlimited when absent', async () => {
    const { requestHandler } = serverWith(undefined);
    const long = 'x'.repeat(200_000);
    const task = (await requestHandler.sendMessage(request(`/echo ${long}`), context)) as Task;
    expect(replyOf(task)).toBe(long);
  });

  it('must be a whole number of at least 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => serverWith(bad)).toThrow(RangeError);
    }
  });
});
