import {
  Role,
  TaskState,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
} from '@a2a-js/sdk';
import type { Client, RequestOptions } from '@a2a-js/sdk/client';
import { TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { isTerminalState, parseCommandText, type CommandSpec } from 'a2a-commands/client';
import { HARNESS_METADATA_KEY } from 'a2a-chat-core';
import type { Connection } from './connection.js';
import { agentMessage, chunk } from 'a2a-chat-core/testing';

/** The harness's commands that the chat treats specially, as its card lists them. */
export const HARNESS_COMMANDS: CommandSpec[] = [
  { name: 'help', description: 'List the commands', argument_hint: '[<command>]' },
  { name: 'model', description: "Show or choose this task's model", argument_hint: '[<model>]' },
  { name: 'fork', description: 'Copy this conversation', argument_hint: '[<title>]' },
  { name: 'spawn', description: 'Run a prompt as a sub-task', argument_hint: '<prompt>' },
  { name: 'tasks', description: 'List the tasks in this conversation', argument_hint: '' },
  { name: 'stop', description: 'Stop the running answer', argument_hint: '' },
];

/** An agent like the harness before `/stop`: Ctrl+C can only cancel the task. */
export const COMMANDS_WITHOUT_STOP: CommandSpec[] = HARNESS_COMMANDS.filter(
  (command) => command.name !== 'stop',
);

function textOf(message: Message | undefined): string {
  return (message?.parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}

/**
 * A UUIDv7-shaped id, as the harness makes them: a millisecond timestamp
 * first, random after, so ids made together share their first characters.
 */
function timeOrderedId(): string {
  const time = Date.now().toString(16).padStart(12, '0');
  const random = crypto.randomUUID().replace(/-/g, '').slice(0, 20);
  const hex = `${time}7${random.slice(1)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function user(text: string, taskId: string, contextId: string): Message {
  return { ...agentMessage(text), role: Role.ROLE_USER, taskId, contextId };
}

/**
 * An A2A agent in memory, behind the SDK's `Client` interface: ordinary
 * messages stream back `You said: ...` word by word; `/model`, `/spawn`,
 * `/fork` and `/tasks` reply the way the harness does (SEMANTICS §3).
 */
export class FakeAgent {
  readonly tasks: Map<string, Task> = new Map();
  readonly calls: Array<{ method: string; text?: string; taskId?: string; contextId?: string }> =
    [];
  /** Delay between streamed words; with `hold`, a turn waits until it is canceled. */
  wordDelayMs = 0;
  hold = false;
  models = ['offline/echo', 'openai/gpt-x'];
  private model = 'offline/echo';
  /** Tasks whose running turn `/stop` ended. */
  private readonly stops = new Set<string>();

  constructor(readonly commands: readonly CommandSpec[] = HARNESS_COMMANDS) {}

  connection(): Connection {
    return {
      url: 'http://agent.test',
      client: this.client(),
      card: {} as Connection['card'],
      agentName: 'Fake agent',
      commands: this.commands,
    };
  }

  client(): Client {
    return {
      config: undefined,
      sendMessage: (request: SendMessageRequest) => this.sendMessage(request),
      sendMessageStream: (request: SendMessageRequest, options?: RequestOptions) =>
        this.stream(request, options),
      getTask: async ({ id }: { id: string }) => this.get(id),
      cancelTask: async ({ id }: { id: string }) => {
        this.calls.push({ method: 'cancelTask', taskId: id });
        const found = this.get(id);
        found.status = { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: '' };
        return found;
      },
      resubscribeTask: (_request: unknown, _options?: RequestOptions) => this.resubscribe(),
    } as unknown as Client;
  }

  private get(id: string): Task {
    const found = this.tasks.get(id);
    if (!found) throw new TaskNotFoundError(`Task not found: ${id}`);
    return found;
  }

  private create(contextId: string = crypto.randomUUID(), history: Message[] = []): Task {
    const created: Task = {
      id: timeOrderedId(),
      contextId,
      status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: undefined, timestamp: '' },
      history,
      artifacts: [],
      metadata: {},
    };
    this.tasks.set(created.id, created);
    return created;
  }

  /** Records the call, and finds the task it names or makes a new one. */
  private receive(
    method: 'sendMessage' | 'sendMessageStream',
    { message }: SendMessageRequest,
  ): { text: string; target: Task } {
    const text = textOf(message);
    this.calls.push({
      method,
      text,
      taskId: message?.taskId || undefined,
      contextId: message?.contextId || undefined,
    });
    const target = message?.taskId
      ? this.get(message.taskId)
      : this.create(message?.contextId || undefined);
    return { text, target };
  }

  private async sendMessage(request: SendMessageRequest): Promise<Task> {
    const { text, target } = this.receive('sendMessage', request);
    const parsed = parseCommandText(text);
    if (!parsed || !this.commands.some((c) => c.name === parsed.name)) {
      throw new UnsupportedOperationError('the fake agent streams ordinary messages only');
    }
    const reply = this.reply(target, parsed.name, parsed.args);
    const message_ = agentMessage(reply.text, {
      metadata: reply.taskRef
        ? { command: parsed.name, task_ref: reply.taskRef }
        : { command: parsed.name },
      data: reply.data,
    });
    Object.assign(message_, { taskId: target.id, contextId: target.contextId });
    target.history.push(user(text, target.id, target.contextId), message_);
    return { ...target, status: { ...target.status!, message: message_ }, history: [] };
  }

  private reply(
    target: Task,
    name: string,
    args: string,
  ): { text: string; data?: unknown; taskRef?: string } {
    const models = this.models.map((id) => ({ id, provider: id.split('/')[0] }));
    switch (name) {
      case 'model':
        if (args !== '') this.model = args;
        return {
          text:
            args === ''
              ? `Model: ${this.model}\n\nModels:\n${this.models.join('\n')}`
              : `Model set to ${args}.`,
          data: { current: this.model, models },
        };
      case 'spawn': {
        const sub = this.create(target.contextId, [
          user(args, '', target.contextId),
          agentMessage(`You said: ${args}`),
        ]);
        return { text: `Started sub-task ${sub.id}.`, data: { task_ref: sub.id }, taskRef: sub.id };
      }
      case 'fork': {
        const copy = this.create(target.contextId, [...target.history]);
        return { text: `Forked into ${copy.id}.`, data: { task_ref: copy.id }, taskRef: copy.id };
      }
      case 'tasks': {
        const tasks = [...this.tasks.values()]
          .filter((t) => t.contextId === target.contextId)
          .map((t) => ({
            id: t.id,
            title: textOf(t.history[0]) || '(untitled)',
            state: TaskState[t.status!.state],
            current: t.id === target.id,
          }));
        return { text: `Tasks in this conversation (${tasks.length}):`, data: { tasks } };
      }
      case 'stop':
        if (target.status!.state !== TaskState.TASK_STATE_WORKING)
          return { text: 'Nothing to stop.' };
        this.stops.add(target.id);
        return { text: 'Stopped the answer.' };
      default:
        return { text: `/${name} ran.` };
    }
  }

  private async *stream(
    request: SendMessageRequest,
    options?: RequestOptions,
  ): AsyncGenerator<StreamResponse> {
    const { text, target } = this.receive('sendMessageStream', request);
    if (isTerminalState(target.status!.state)) {
      throw new UnsupportedOperationError(`Task ${target.id} has ended`);
    }
    target.history.push(user(text, target.id, target.contextId));
    target.status = { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: '' };
    const ids = { taskId: target.id, contextId: target.contextId };
    yield { payload: { $case: 'task', value: { ...target, history: [] } } };
    const words = `You said: ${text}`.match(/\S+\s*/g) ?? [];
    const signal = options?.signal ?? undefined;
    for (const [index, word] of words.entries()) {
      const event = chunk(word, { first: index === 0, artifactId: `a-${target.history.length}` });
      Object.assign(event.payload!.value, ids);
      yield event;
      if (this.wordDelayMs > 0) await new Promise((r) => setTimeout(r, this.wordDelayMs));
      if (signal?.aborted) return;
    }
    const stopped = () => this.stops.delete(target.id);
    while (this.hold && !signal?.aborted && !this.stops.has(target.id)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    if (signal?.aborted) return;
    // Like the harness: /stop keeps the answer so far, marked stopped, and the task goes on.
    const answer = stopped()
      ? agentMessage(`You said: ${text}`, {
          metadata: { [HARNESS_METADATA_KEY]: { stopped: true } },
        })
      : agentMessage(`You said: ${text}`);
    Object.assign(answer, ids);
    target.history.push(answer);
    target.status = { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: answer, timestamp: '' };
    yield {
      payload: {
        $case: 'statusUpdate',
        value: { ...ids, status: target.status, metadata: undefined },
      },
    };
  }

  private async *resubscribe(): AsyncGenerator<StreamResponse> {
    // The fake's turns never outlive their stream: nothing to follow.
  }
}
