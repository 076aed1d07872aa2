import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { CommandsTaskStore } from './sdk-task-store.js';

const context = new ServerCallContext();

function message(text: string, role = Role.ROLE_USER): Message {
  return {
    messageId: crypto.randomUUID(),
    taskId: 't1',
    contextId: 'c1',
    role,
    parts: [
      { content: { $case: 'text', value: text }, mediaType: '', filename: '', metadata: undefined },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function task(history: Message[], metadata: Record<string, unknown> = {}): Task {
  return {
    id: 't1',
    contextId: 'c1',
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
    history,
    artifacts: [],
    metadata,
  };
}

const textOf = (m: Message) =>
  m.parts[0]?.content?.$case === 'text' ? m.parts[0].content.value : '';

describe('CommandsTaskStore: the turn path and the command path share a task without losing writes', () => {
  it('a turn saving a task it loaded before a command does not drop the command and its reply', async () => {
    const store = new CommandsTaskStore();
    await store.create(task([message('hello')]), context);
    const loadedByTurn = (await store.load('t1', context))!;

    const reply = message('reply', Role.ROLE_AGENT);
    await store.appendReply('t1', [message('/help'), reply], reply, context);
    loadedByTurn.history.push(message('model answer', Role.ROLE_AGENT));
    await store.save(loadedByTurn, context);

    const stored = (await store.load('t1', context))!;
    expect(stored.history.map(textOf)).toEqual(['hello', '/help', 'reply', 'model answer']);
  });

  it('a command that writes metadata during a turn keeps its write when the turn saves stale metadata', async () => {
    const store = new CommandsTaskStore();
    await store.create(task([message('hello')], { model: 'old', note: 'kept' }), context);
    const loadedByTurn = (await store.load('t1', context))!;

    await store.updateMetadata('t1', (m) => ({ ...m, model: 'new' }), context);
    loadedByTurn.metadata = { ...loadedByTurn.metadata, usage: 42 };
    await store.save(loadedByTurn, context);

    const stored = (await store.load('t1', context))!;
    expect(stored.metadata).toEqual({ model: 'new', note: 'kept', usage: 42 });
  });

  it('§3: a save never leaves reply tags in Task.metadata', async () => {
    const store = new CommandsTaskStore();
    await store.save(task([], { command: 'help', task_ref: 'x', other: 1 }), context);
    expect((await store.load('t1', context))!.metadata).toEqual({ other: 1 });
  });

  it('appendReply keeps the stored state and sets the status message', async () => {
    const store = new CommandsTaskStore();
    await store.create(task([]), context);
    const reply = message('reply', Role.ROLE_AGENT);
    const head = await store.appendReply('t1', [reply], reply, context);
    expect(head?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(head?.status?.message?.messageId).toBe(reply.messageId);
    expect(head).not.toHaveProperty('history');
  });

  it('many concurrent appends and stale saves lose nothing', async () => {
    const store = new CommandsTaskStore();
    await store.create(task([]), context);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 50; i++) {
      const reply = message(`reply ${i}`, Role.ROLE_AGENT);
      writes.push(store.appendReply('t1', [reply], reply, context));
      writes.push(
        store.load('t1', context).then((loaded) => {
          loaded!.history.push(message(`turn ${i}`, Role.ROLE_AGENT));
          return store.save(loaded!, context);
        }),
      );
    }
    await Promise.all(writes);
    const texts = (await store.load('t1', context))!.history.map(textOf);
    expect(texts).toHaveLength(100);
    expect(new Set(texts).size).toBe(100);
  });
});
