/** The same store tests, on SQLite and on PostgreSQL. */
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessTaskStore, type HarnessDatabase } from '../src/store/index.js';
import { openTestDatabase, storeKinds, testDatabaseUrl } from 'a2a-testing/stores';

const user = (name: string): User => ({ isAuthenticated: true, userName: name });
const alice = new ServerCallContext({ user: user('alice') });
const bob = new ServerCallContext({ user: user('bob') });

function message(text: string, role = Role.ROLE_USER, metadata?: Record<string, unknown>): Message {
  return {
    messageId: crypto.randomUUID(),
    taskId: '',
    contextId: 'ctx',
    role,
    parts: [
      {
        content: { $case: 'text', value: text },
        mediaType: 'text/plain',
        filename: '',
        metadata: undefined,
      },
    ],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

function newTask(
  history: Message[] = [],
  metadata: Record<string, unknown> = {},
  contextId = 'ctx',
): Task {
  return {
    id: crypto.randomUUID(),
    contextId,
    status: {
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      message: undefined,
      timestamp: new Date().toISOString(),
    },
    history,
    artifacts: [],
    metadata,
  };
}

const texts = (task: Task | undefined) =>
  (task?.history ?? []).map((m) =>
    m.parts[0]?.content?.$case === 'text' ? m.parts[0].content.value : '',
  );

describe.each(storeKinds)('HarnessTaskStore on %s', (kind) => {
  let database: HarnessDatabase;
  let store: HarnessTaskStore;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    store = new HarnessTaskStore(database.db);
  });
  afterAll(() => database.close());

  it('keeps a task, its history in order, its status and metadata', async () => {
    const task = newTask([message('one'), message('two', Role.ROLE_AGENT)], { a: 1 });
    await store.create(task, alice);
    const loaded = await store.load(task.id, alice);
    expect(texts(loaded)).toEqual(['one', 'two']);
    expect(loaded?.metadata).toEqual({ a: 1 });
    expect(loaded?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(loaded?.history[1]?.taskId).toBe(task.id);
  });

  it('keeps a task created with a long history (more rows than one statement may carry)', async () => {
    const history = Array.from({ length: 10_000 }, (_, i) => message(`m${i}`));
    const task = newTask(history);
    await store.create(task, alice);
    const loaded = await store.load(task.id, alice);
    expect(loaded?.history).toHaveLength(10_000);
    expect(texts(loaded).at(-1)).toBe('m9999');
    expect(await store.historyEnd(task.id)).toBe(10_000);
  });

  it('hides a task from another caller', async () => {
    const task = newTask([message('private')]);
    await store.create(task, alice);
    expect(await store.load(task.id, bob)).toBeUndefined();
    expect(await store.loadHead(task.id, bob)).toBeUndefined();
    expect(await store.update(task.id, bob, { append: [message('intrusion')] })).toBeUndefined();
    expect(texts(await store.load(task.id, alice))).toEqual(['private']);
  });

  it('reads the head without history, and the last N messages by index', async () => {
    const task = newTask(Array.from({ length: 30 }, (_, i) => message(`m${i}`)));
    await store.create(task, alice);
    const head = await store.loadHead(task.id, alice);
    expect(head).not.toHaveProperty('history');
    expect(texts(await store.load(task.id, alice, 3))).toEqual(['m27', 'm28', 'm29']);
    expect(texts(await store.load(task.id, alice, 0))).toEqual([]);
    const from = await store.loadHistory(task.id, alice, { from: 28 });
    expect(from.map((m) => (m.parts[0]?.content as { value: string }).value)).toEqual([
      'm28',
      'm29',
    ]);
  });

  it('appendReply appends, sets the status message and keeps the state (SEMANTICS §4)', async () => {
    const task = newTask([message('hello')]);
    task.status!.state = TaskState.TASK_STATE_WORKING;
    await store.create(task, alice);
    const reply = message('reply', Role.ROLE_AGENT, { command: 'help' });
    const head = await store.appendReply(task.id, [message('/help'), reply], reply, alice);
    expect(head?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(head?.status?.message?.messageId).toBe(reply.messageId);
    expect(texts(await store.load(task.id, alice))).toEqual(['hello', '/help', 'reply']);
  });

  it('a reply is stored linked to the command it answers, and found by that link on every write path (SEMANTICS §8)', async () => {
    const command = message('/title x', Role.ROLE_USER, { command: 'title' });
    const reply = message('titled', Role.ROLE_AGENT, { command: 'title' });
    const task = newTask([command, reply]);
    task.status!.message = reply;
    await store.create(task, alice);
    expect((await store.findReply(task.id, command.messageId))?.messageId).toBe(reply.messageId);
    const turn = message('an ordinary message');
    await store.update(task.id, alice, { append: [turn] });
    expect(await store.findReply(task.id, turn.messageId)).toBeUndefined();
    const status = message('/status', Role.ROLE_USER, { command: 'status' });
    const statusReply = message('idle', Role.ROLE_AGENT, { command: 'status' });
    await store.appendReply(task.id, [status, statusReply], statusReply, alice);
    expect((await store.findReply(task.id, status.messageId))?.messageId).toBe(
      statusReply.messageId,
    );
    // A fork's copy counts against a quota: that write takes the store's checked path.
    const quoted = new HarnessTaskStore(database.db, { historyCharsPerOwner: 1e9 });
    const fork = message('/fork', Role.ROLE_USER, { command: 'fork' });
    const forkReply = message('forked', Role.ROLE_AGENT, { command: 'fork' });
    await quoted.appendReply(task.id, [fork, forkReply], forkReply, alice, {
      subtasks: [newTask([message('copied')])],
    });
    expect((await quoted.findReply(task.id, fork.messageId))?.messageId).toBe(forkReply.messageId);
  });

  it('a metadata write and a history append racing on one task lose neither', async () => {
    const task = newTask([]);
    await store.create(task, alice);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      writes.push(store.updateMetadata(task.id, (m) => ({ ...m, [`k${i}`]: i }), alice));
      writes.push(
        store.update(task.id, alice, { append: [message(`turn ${i}`, Role.ROLE_AGENT)] }),
      );
    }
    await Promise.all(writes);
    const loaded = await store.load(task.id, alice);
    expect(Object.keys(loaded!.metadata!)).toHaveLength(40);
    expect(new Set(texts(loaded)).size).toBe(40);
  });

  it("the SDK's save appends what it adds and never drops what a command appended meanwhile", async () => {
    const task = newTask([message('hello')]);
    await store.create(task, alice);
    const loadedByTurn = (await store.load(task.id, alice))!;
    const reply = message('reply', Role.ROLE_AGENT);
    await store.appendReply(task.id, [message('/model x'), reply], reply, alice);
    loadedByTurn.history.push(message('model answer', Role.ROLE_AGENT));
    await store.save(loadedByTurn, alice);
    expect(texts(await store.load(task.id, alice))).toEqual([
      'hello',
      '/model x',
      'reply',
      'model answer',
    ]);
  });

  it("the SDK's save of a task with a long history stores all of it, and later appends only what is new", async () => {
    const task = newTask(Array.from({ length: 250 }, (_, i) => message(`m${i}`)));
    await store.save(task, alice);
    task.history.push(message('after'));
    await store.save(task, alice);
    const loaded = await store.load(task.id, alice);
    expect(loaded?.history).toHaveLength(251);
    expect(texts(loaded).slice(-2)).toEqual(['m249', 'after']);
    expect(await store.historyEnd(task.id)).toBe(251);
  });

  it('never keeps reply tags in Task.metadata (SEMANTICS §3)', async () => {
    const task = newTask([], { command: 'help', task_ref: 'x', kept: true });
    await store.save(task, alice);
    expect((await store.loadHead(task.id, alice))?.metadata).toEqual({ kept: true });
  });

  it('does not duplicate a message appended twice', async () => {
    const task = newTask([]);
    await store.create(task, alice);
    const once = message('once');
    await store.update(task.id, alice, { append: [once] });
    await store.update(task.id, alice, { append: [once] });
    expect(texts(await store.load(task.id, alice))).toEqual(['once']);
  });

  it('lists the tasks of a context', async () => {
    const contextId = crypto.randomUUID();
    const a = newTask([], {}, contextId);
    const b = newTask([], {}, contextId);
    await store.create(a, alice);
    await store.create(b, alice);
    await store.create(newTask([], {}, contextId), bob);
    const listed = await store.list(
      {
        tenant: '',
        contextId,
        status: 0,
        pageToken: '',
        pageSize: 50,
        statusTimestampAfter: undefined,
      },
      alice,
    );
    expect(listed.tasks.map((t) => t.id).sort()).toEqual([a.id, b.id].sort());
  });

  it('finds the tasks a stop left working or submitted, whoever owns them', async () => {
    const working = newTask([message('long question')]);
    working.status!.state = TaskState.TASK_STATE_WORKING;
    await store.create(working, alice);
    const idle = newTask([message('answered')]);
    await store.create(idle, bob);
    const reopened = await openTestDatabase(kind, database.url);
    try {
      const left = await new HarnessTaskStore(reopened.db).tasksLeftRunning();
      const ours = left.find((row) => row.id === working.id);
      expect(ours).toMatchObject({ id: working.id, contextId: working.contextId });
      expect(left.map((row) => row.id)).not.toContain(idle.id);
    } finally {
      await reopened.close();
    }
  });
});

it('on PostgreSQL, two processes writing one task lose nothing: their writes are ordered by the database', async () => {
  // Two stores on two pools stand for two harness processes sharing the tables.
  const url = testDatabaseUrl('postgres');
  const [first, second] = await Promise.all([
    openTestDatabase('postgres', url),
    openTestDatabase('postgres', url),
  ]);
  try {
    const one = new HarnessTaskStore(first.db);
    const other = new HarnessTaskStore(second.db);
    const task = newTask([]);
    await one.create(task, alice);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      writes.push(one.updateMetadata(task.id, (m) => ({ ...m, [`one${i}`]: i }), alice));
      writes.push(other.updateMetadata(task.id, (m) => ({ ...m, [`other${i}`]: i }), alice));
      writes.push(one.update(task.id, alice, { append: [message(`one ${i}`)] }));
      writes.push(other.update(task.id, alice, { append: [message(`other ${i}`)] }));
    }
    await Promise.all(writes);
    const loaded = await one.load(task.id, alice);
    expect(Object.keys(loaded!.metadata!)).toHaveLength(60);
    expect(new Set(texts(loaded)).size).toBe(60);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

it('on SQLite, which keeps no turn rows, a change with one is refused and leaves the task as it was', async () => {
  const database = await openTestDatabase('sqlite');
  try {
    const store = new HarnessTaskStore(database.db);
    const task = newTask([message('first')]);
    await store.create(task, alice);
    const refused = store.update(task.id, alice, {
      append: [message('never stored')],
      status: () => ({ state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: '' }),
      turnRow: { kind: 'fence', rowId: '1', instance: 'me' },
    });
    await expect(refused).rejects.toThrow(/turn rows \(fence\) are kept on PostgreSQL only/);
    const loaded = await store.load(task.id, alice);
    expect(texts(loaded)).toEqual(['first']);
    expect(loaded?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  } finally {
    await database.close();
  }
});

it('a fresh SQLite file is migrated on open, with no separate step', async () => {
  const database = await openTestDatabase('sqlite', testDatabaseUrl('sqlite'));
  try {
    const store = new HarnessTaskStore(database.db);
    const task = newTask([message('first')]);
    await store.create(task, alice);
    expect(texts(await store.load(task.id, alice))).toEqual(['first']);
  } finally {
    await database.close();
  }
});
