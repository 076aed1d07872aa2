/**
 * What a command changes (metadata, sub-tasks) is stored in the one write that
 * stores the command and its reply: a crash before that write leaves nothing,
 * after it everything, and a sub-task's prompt goes out only once it is stored.
 */
import { TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import type { CommandRun } from '../command.js';
import { CommandError } from '../errors.js';
import { newMessage, textPart, USER } from '../message.js';
import { parseCommand } from '../parse.js';
import { CommandRegistry } from '../registry.js';
import { SUBTASK_METADATA_KEY } from '../spec.js';
import type { CommandEffects, TaskHead } from './command-task-store.js';
import { LiveStreams } from './live-streams.js';
import { CommandRunner } from './run-command.js';
import { CommandsTaskStore } from './sdk-task-store.js';

const context = new ServerCallContext();

/** Records each write; the write named `killAt` fails, as in a process killed before it. */
class RecordingStore extends CommandsTaskStore {
  readonly writes: string[] = [];
  killAt: string | undefined;

  private record(name: string): void {
    this.writes.push(name);
    if (name === this.killAt) throw new Error('killed');
  }

  override async create(
    task: Task,
    callContext: ServerCallContext,
    effects?: Pick<CommandEffects, 'subtasks'>,
  ): Promise<void> {
    this.record('create');
    return super.create(task, callContext, effects);
  }

  override async appendReply(
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    callContext: ServerCallContext,
    effects?: CommandEffects,
  ): Promise<TaskHead | undefined> {
    this.record('appendReply');
    return super.appendReply(taskId, entries, statusMessage, callContext, effects);
  }

  override async updateMetadata(
    ...args: Parameters<CommandsTaskStore['updateMetadata']>
  ): Promise<Record<string, unknown>> {
    this.record('updateMetadata');
    return super.updateMetadata(...args);
  }
}

/** `/both <value>`: sets `value` in the metadata, then starts a sub-task; `/both fail` then throws. */
function setup(run?: CommandRun) {
  const store = new RecordingStore();
  const registry = new CommandRegistry();
  const subtaskIds: string[] = [];
  registry.register({
    name: 'both',
    description: 'Writes metadata and starts a sub-task',
    run:
      run ??
      (async ({ args, updateMetadata, createSubtask }) => {
        await updateMetadata((m) => ({ ...m, value: args }));
        const sub = await createSubtask({ prompt: `work on ${args}` });
        subtaskIds.push(sub.id);
        if (args === 'fail') throw new Error('the handler broke');
        return { text: `set ${args}`, task_ref: sub.id };
      }),
  });
  const prompts: { taskId: string; storedFirst: boolean }[] = [];
  let onError: ((error: unknown) => void) | undefined;
  const runner = new CommandRunner({
    store,
    live: new LiveStreams(),
    onError: (error) => onError?.(error),
    sendPrompt: async (message) => {
      const stored = await store.load(message.taskId, context);
      prompts.push({ taskId: message.taskId, storedFirst: stored !== undefined });
    },
  });
  const send = (text: string, taskId?: string, errors?: (error: unknown) => void) => {
    onError = errors;
    const message = newMessage({ role: USER, parts: [textPart(text)], taskId, contextId: 'c1' });
    return runner.run(message, parseCommand(message, registry)!, context);
  };
  return { store, send, subtaskIds, prompts };
}

async function storeTask(store: CommandsTaskStore): Promise<void> {
  await store.create(
    {
      id: 't1',
      contextId: 'c1',
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
      history: [],
      artifacts: [],
      metadata: { kept: true },
    },
    context,
  );
}

describe('CommandRunner: a command and all it changes are one write', () => {
  it('metadata, sub-task, command and reply go to the store in a single write', async () => {
    const { store, send, subtaskIds, prompts } = setup();
    await storeTask(store);
    store.writes.length = 0;

    await send('/both one', 't1');

    expect(store.writes).toEqual(['appendReply']);
    const parent = (await store.load('t1', context))!;
    expect(parent.metadata).toEqual({
      kept: true,
      value: 'one',
      [SUBTASK_METADATA_KEY]: { subtasks: subtaskIds },
    });
    expect(parent.history.map((m) => m.metadata?.command)).toEqual(['both', 'both']);
    const sub = (await store.load(subtaskIds[0]!, context))!;
    expect(sub.metadata?.[SUBTASK_METADATA_KEY]).toEqual({ parent: 't1' });
    await new Promise((resolve) => setTimeout(resolve, 0)); // the prompt goes out in the background
    expect(prompts).toEqual([{ taskId: subtaskIds[0], storedFirst: true }]);
  });

  it('when the write of the reply fails, as in a crash, nothing of the command is stored', async () => {
    const { store, send, subtaskIds, prompts } = setup();
    await storeTask(store);
    store.killAt = 'appendReply';

    await expect(send('/both two', 't1')).rejects.toThrow('killed');

    const parent = (await store.load('t1', context))!;
    expect(parent.metadata).toEqual({ kept: true });
    expect(parent.history).toEqual([]);
    expect(await store.load(subtaskIds[0]!, context)).toBeUndefined();
    expect(prompts).toEqual([]);
  });

  it('a command that starts its task stores the task, its effects and the reply in one write', async () => {
    const { store, send, subtaskIds } = setup();

    const { head } = await send('/both three');

    expect(store.writes).toEqual(['create']);
    const created = (await store.load(head.id, context))!;
    expect(created.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(created.metadata).toEqual({
      value: 'three',
      [SUBTASK_METADATA_KEY]: { subtasks: subtaskIds },
    });
    expect(created.history).toHaveLength(2);
    expect(await store.load(subtaskIds[0]!, context)).toBeDefined();
  });

  it('a command that starts its task tells no stream: none can know the task yet, in any process', async () => {
    const relayed: string[] = [];
    const store = new RecordingStore();
    const registry = new CommandRegistry();
    registry.register({ name: 'ping', description: 'Answers', run: async () => 'pong' });
    const runner = new CommandRunner({
      store,
      live: new LiveStreams({ send: (taskId) => relayed.push(taskId) }),
      sendPrompt: async () => undefined,
    });
    const run = (taskId?: string) => {
      const message = newMessage({ role: USER, parts: [textPart('/ping')], taskId });
      return runner.run(message, parseCommand(message, registry)!, context);
    };
    const { head } = await run();
    expect(relayed).toEqual([]);
    await run(head.id);
    expect(relayed).toEqual([head.id]);
  });

  it('a handler that throws after changing things leaves them unchanged, as its reply says', async () => {
    const { store, send, subtaskIds, prompts } = setup();
    await storeTask(store);

    const { reply } = await send('/both fail', 't1');

    const text = reply.parts[0]?.content?.$case === 'text' ? reply.parts[0].content.value : '';
    expect(text).toMatch(/Nothing was changed/);
    expect((await store.load('t1', context))!.metadata).toEqual({ kept: true });
    expect(await store.load(subtaskIds[0]!, context)).toBeUndefined();
    expect(prompts).toEqual([]);
  });

  it('updateMetadata answers with the metadata as the command leaves it', async () => {
    let seen: unknown;
    const { store, send } = setup(async ({ updateMetadata }) => {
      await updateMetadata((m) => ({ ...m, a: 1 }));
      seen = await updateMetadata((m) => ({ ...m, b: 2 }));
      return 'ok';
    });
    await storeTask(store);

    await send('/both', 't1');

    expect(seen).toEqual({ kept: true, a: 1, b: 2 });
    expect((await store.load('t1', context))!.metadata).toEqual({ kept: true, a: 1, b: 2 });
  });
});

describe('CommandRunner: new ids', () => {
  it('a store that hands out ids names the task a command starts, its context and its sub-tasks', async () => {
    const store = new (class extends CommandsTaskStore {
      private next = 0;
      newId(): string {
        return `id-${this.next++}`;
      }
    })();
    const registry = new CommandRegistry();
    registry.register({
      name: 'spawn',
      description: 'Starts a sub-task',
      run: async ({ createSubtask }) => ({
        text: 'started',
        task_ref: (await createSubtask({})).id,
      }),
    });
    const runner = new CommandRunner({
      store,
      live: new LiveStreams(),
      sendPrompt: async () => {},
    });
    const message = newMessage({ role: USER, parts: [textPart('/spawn')] });

    const { head, reply } = await runner.run(message, parseCommand(message, registry)!, context);

    expect(head.id).toBe('id-0');
    expect(head.contextId).toBe('id-1');
    expect(reply.metadata?.task_ref).toBe('id-2');
    expect((await store.load('id-2', context))?.contextId).toBe('id-1');
  });

  it('without one, ids are random UUIDs', async () => {
    const registry = new CommandRegistry();
    registry.register({ name: 'noop', description: 'Does nothing', run: async () => 'ok' });
    const runner = new CommandRunner({
      store: new CommandsTaskStore(),
      live: new LiveStreams(),
      sendPrompt: async () => {},
    });
    const message = newMessage({ role: USER, parts: [textPart('/noop')] });

    const { head } = await runner.run(message, parseCommand(message, registry)!, context);

    expect(head.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
    expect(head.contextId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
  });
});

describe("a sub-task's prompt is admitted as the command stages it", () => {
  function runnerWith(admitPrompt: (context: ServerCallContext, command: string) => void) {
    const store = new CommandsTaskStore();
    const registry = new CommandRegistry();
    const sent: string[] = [];
    registry.register({
      name: 'delegate',
      description: 'Starts a sub-task with a prompt',
      run: async ({ args, createSubtask }) => {
        const sub = await createSubtask({ prompt: args });
        return { text: `started ${sub.id}`, task_ref: sub.id };
      },
    });
    const runner = new CommandRunner({
      store,
      live: new LiveStreams(),
      sendPrompt: async (message) => {
        sent.push(message.taskId);
      },
      admitPrompt,
    });
    const send = (text: string) => {
      const message = newMessage({ role: USER, parts: [textPart(text)] });
      return runner.run(message, parseCommand(message, registry)!, context);
    };
    return { store, send, sent };
  }

  it('is asked with the call context and the command that stages it', async () => {
    const asked: [ServerCallContext, string][] = [];
    const { store, send, sent } = runnerWith((callContext, command) =>
      asked.push([callContext, command]),
    );
    const { reply, head } = await send('/delegate write a haiku');
    expect(asked).toEqual([[context, 'delegate']]);
    expect(reply.metadata?.task_ref).toEqual(expect.any(String));
    expect((await store.load(head.id, context))?.metadata?.[SUBTASK_METADATA_KEY]).toBeDefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([reply.metadata?.task_ref]);
  });

  it('refused with a CommandError: the reply is the refusal, no sub-task is stored, no prompt goes out', async () => {
    const { store, send, sent } = runnerWith(() => {
      throw new CommandError('over the turn limit', { code: 'rate-limited' });
    });
    const { reply, head } = await send('/delegate write a haiku');
    const data = reply.parts.find((part) => part.content?.$case === 'data')?.content;
    expect(data?.$case === 'data' && data.value).toMatchObject({
      error: { code: 'rate-limited', message: 'over the turn limit' },
    });
    expect(reply.metadata?.task_ref).toBeUndefined();
    const stored = await store.load(head.id, context);
    expect(stored?.metadata?.[SUBTASK_METADATA_KEY]).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
  });
});

describe('CommandRunner: task_ref names the sub-task the command made (SEMANTICS §3)', () => {
  const refOf = (reply: Message) => reply.metadata?.['task_ref'];

  it('is filled in when the handler made exactly one sub-task and named none', async () => {
    const { store, send } = setup(async ({ createSubtask }) => {
      await createSubtask({});
      return 'made one';
    });
    await storeTask(store);
    const { reply, event } = await send('/both x', 't1');
    const links = (await store.load('t1', context))!.metadata?.[SUBTASK_METADATA_KEY] as {
      subtasks: string[];
    };
    expect(links.subtasks).toHaveLength(1);
    expect(refOf(reply)).toBe(links.subtasks[0]);
    expect(event.metadata).toEqual({ command: 'both', task_ref: links.subtasks[0] });
  });

  it('is left out when the handler made several and named none: it cannot be guessed', async () => {
    const { store, send } = setup(async ({ createSubtask }) => {
      await createSubtask({});
      await createSubtask({});
      return 'made two';
    });
    await storeTask(store);
    const { reply } = await send('/both x', 't1');
    expect(reply.metadata).toEqual({ command: 'both' });
  });

  it('refuses an id the command did not create, and changes nothing', async () => {
    const errors: string[] = [];
    const { store, send, subtaskIds } = setup(async ({ createSubtask }) => {
      subtaskIds.push((await createSubtask({ prompt: 'go' })).id);
      return { text: 'made one', task_ref: 'made-up-id' };
    });
    await storeTask(store);
    const { reply } = await send('/both x', 't1', (error) => errors.push(String(error)));
    expect(refOf(reply)).toBeUndefined();
    const text = reply.parts[0]?.content?.$case === 'text' ? reply.parts[0].content.value : '';
    expect(text).toMatch(/\/both failed unexpectedly\. Nothing was changed/);
    expect(errors.join('\n')).toContain(
      "task_ref 'made-up-id' is not a sub-task this command created",
    );
    expect(await store.load(subtaskIds[0]!, context)).toBeUndefined();
    expect((await store.load('t1', context))!.metadata).toEqual({ kept: true });
  });
});
