/**
 * The command path on PostgreSQL: one round trip to read a task's head and one
 * to append a command, its reply and its effects, counted as the queries the
 * pool's connections are sent. The rows it writes are the SQLite path's rows.
 */
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext, type User } from '@a2a-js/sdk/server';
import {
  CommandRegistry,
  newMessage,
  parseCommand,
  textPart,
  USER,
  type TaskMetadata,
} from 'a2a-commands';
import { CommandRunner, LiveStreams } from 'a2a-commands/server/internal';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessTaskStore, postgresPoolOf, type HarnessDatabase } from '../src/store/index.js';
import { MESSAGES_TABLE } from '../src/store/messages-table.js';
import { openTestDatabase, testDatabaseUrl } from 'a2a-testing/stores';

const user = (name: string): User => ({ isAuthenticated: true, userName: name });
const alice = () => new ServerCallContext({ user: user('alice') });
const bob = () => new ServerCallContext({ user: user('bob') });

/** Counts the queries sent on the pool's connections: with `pg`, each is one round trip. */
function queryCounter(pool: pg.Pool): { readonly count: number; reset(): void } {
  let count = 0;
  const counted = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (counted.has(client)) return;
    counted.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      count++;
      return query(...args);
    };
  });
  return {
    get count() {
      return count;
    },
    reset() {
      count = 0;
    },
  };
}

function message(text: string, role = Role.ROLE_USER): Message {
  return newMessage({ role, contextId: 'ctx', parts: [textPart(text)] });
}

function newTask(
  history: Message[] = [],
  metadata: TaskMetadata = {},
  state = TaskState.TASK_STATE_INPUT_REQUIRED,
): Task {
  return {
    id: crypto.randomUUID(),
    contextId: 'ctx',
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    history,
    artifacts: [],
    metadata,
  };
}

/** `/ping` answers; `/set <v>` also sets `value`; `/sub` also starts a sub-task (no history). */
function commandRunner(store: HarnessTaskStore) {
  const registry = new CommandRegistry();
  registry.register({ name: 'ping', description: 'Answers', run: async () => ({ text: 'pong' }) });
  registry.register({
    name: 'set',
    description: 'Sets value',
    run: async ({ args, updateMetadata }) => {
      await updateMetadata((m) => ({ ...m, value: args }));
      return { text: `set ${args}` };
    },
  });
  registry.register({
    name: 'sub',
    description: 'Starts a sub-task',
    run: async ({ createSubtask }) => {
      const sub = await createSubtask({ prompt: 'work' });
      return { text: 'started', task_ref: sub.id };
    },
  });
  const runner = new CommandRunner({
    store,
    live: new LiveStreams(),
    sendPrompt: async () => undefined,
  });
  return (text: string, taskId?: string) => {
    const sent = newMessage({ role: USER, parts: [textPart(text)], taskId, contextId: 'ctx' });
    return runner.run(sent, parseCommand(sent, registry)!, alice());
  };
}

describe('the command path on PostgreSQL', () => {
  let database: HarnessDatabase;
  let store: HarnessTaskStore;
  let queries: ReturnType<typeof queryCounter>;
  beforeAll(async () => {
    database = await openTestDatabase('postgres');
    store = new HarnessTaskStore(database.db);
    queries = queryCounter(postgresPoolOf(database.db)!);
  });
  afterAll(() => database.close());

  it('a command that starts its task is one round trip; one on a task is two: the head, then the append', async () => {
    const send = commandRunner(store);
    queries.reset();
    const started = await send('/ping');
    expect(queries.count).toBe(1);

    queries.reset();
    await send('/ping', started.head.id);
    expect(queries.count).toBe(2);

    queries.reset();
    const set = await send('/set fast', started.head.id);
    expect(queries.count).toBe(2);
    expect(set.head.metadata).toEqual({ value: 'fast' });

    queries.reset();
    const sub = await send('/sub', started.head.id);
    expect(queries.count).toBe(2);

    const task = await store.load(started.head.id, alice());
    expect(task?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(task?.status?.message?.messageId).toBe(sub.reply.messageId);
    expect(task?.history.map((m) => m.messageId)).toEqual([
      started.commandMessage.messageId,
      started.reply.messageId,
      expect.any(String),
      expect.any(String),
      set.commandMessage.messageId,
      set.reply.messageId,
      sub.commandMessage.messageId,
      sub.reply.messageId,
    ]);
    const subtaskId = (sub.reply.metadata as { task_ref?: string } | undefined)?.task_ref;
    expect(subtaskId).toBeDefined();
    expect(await store.load(subtaskId!, alice())).toBeDefined();
  });

  it('a metadata change computed from a head another writer changed since is computed again, and both are kept', async () => {
    const task = newTask([], { kept: true });
    await store.create(task, alice());
    const context = alice();
    await store.loadHead(task.id, context);
    // A turn (another writer, another connection) changes the metadata in between.
    await new HarnessTaskStore(database.db).updateMetadata(
      task.id,
      (m) => ({ ...m, turn: 1 }),
      alice(),
    );

    queries.reset();
    const head = await store.appendReply(
      task.id,
      [message('/set late'), message('set late', Role.ROLE_AGENT)],
      message('set late', Role.ROLE_AGENT),
      context,
      { metadata: (m) => ({ ...m, value: 'late' }) },
    );
    // The first append is refused (the metadata moved), the second is stored.
    expect(queries.count).toBe(2);
    expect(head?.metadata).toEqual({ kept: true, turn: 1, value: 'late' });
    expect((await store.load(task.id, alice()))?.metadata).toEqual(head?.metadata);
  });

  it("a reply with JSON's hard characters is stored and read back exactly, and the task takes commands after it", async () => {
    // Quotes, backslashes, newlines, non-ASCII, an astral character and a lone
    // surrogate, which JSON text allows and PostgreSQL's JSON functions refuse to unescape.
    const awkward = 'say "hi" \\ back\n\tto café ☃ 𝄞 \ud800 }{"state":"x"} </script>';
    const task = newTask();
    await store.create(task, alice());
    // A turn's write (the checked path) leaves the hard text in the stored status.
    const answer = message(awkward, Role.ROLE_AGENT);
    await store.update(task.id, alice(), {
      append: [answer],
      status: (current) => ({ ...current!, message: answer }),
    });
    for (const text of [awkward, `again ${awkward}`]) {
      const reply = message(text, Role.ROLE_AGENT);
      const head = await store.appendReply(task.id, [message('/echo'), reply], reply, alice());
      expect(head?.status?.message).toEqual(reply);
      const stored = await store.load(task.id, alice());
      expect(stored?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(stored?.status?.message).toEqual(reply);
      expect(stored?.history.at(-1)).toEqual({ ...reply, taskId: task.id });
    }
  });

  it('a task the caller does not own is not found, and nothing is written to it', async () => {
    const task = newTask([message('hello')]);
    await store.create(task, alice());
    const head = await store.appendReply(
      task.id,
      [message('/ping'), message('pong', Role.ROLE_AGENT)],
      message('pong', Role.ROLE_AGENT),
      bob(),
      { metadata: (m) => ({ ...m, value: 'bob' }) },
    );
    expect(head).toBeUndefined();
    const stored = await store.load(task.id, alice());
    expect(stored?.history).toHaveLength(1);
    expect(stored?.metadata).toEqual({});
  });

  it('two processes sending commands and turn writes to one task lose nothing, and each command sits beside its reply', async () => {
    const other = await openTestDatabase('postgres', testDatabaseUrl('postgres'));
    try {
      const stores = [store, new HarnessTaskStore(other.db)];
      const task = newTask([], {}, TaskState.TASK_STATE_WORKING);
      await store.create(task, alice());
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i++) {
        stores.forEach((each, n) => {
          const key = `p${n}c${i}`;
          const context = alice();
          writes.push(
            each
              .loadHead(task.id, context)
              .then(() =>
                each.appendReply(
                  task.id,
                  [message(`/set ${key}`), message(`set ${key}`, Role.ROLE_AGENT)],
                  message(`set ${key}`, Role.ROLE_AGENT),
                  context,
                  { metadata: (m) => ({ ...m, [key]: i }) },
                ),
              ),
          );
          // A turn's writes, through the checked path.
          writes.push(each.update(task.id, alice(), { append: [message(`turn ${key}`)] }));
          writes.push(each.updateMetadata(task.id, (m) => ({ ...m, [`turn-${key}`]: i }), alice()));
        });
      }
      await Promise.all(writes);
      const stored = await store.load(task.id, alice());
      expect(Object.keys(stored!.metadata!)).toHaveLength(80);
      const texts = stored!.history.map((m) =>
        m.parts[0]?.content?.$case === 'text' ? m.parts[0].content.value : '',
      );
      expect(texts).toHaveLength(120);
      texts.forEach((text, i) => {
        if (text.startsWith('/set ')) expect(texts[i + 1]).toBe(`set ${text.slice(5)}`);
      });
      // The state is kept by every command (SEMANTICS §4).
      expect(stored!.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      const seqs = await database.db
        .selectFrom(MESSAGES_TABLE)
        .select('seq')
        .where('task_id', '=', task.id)
        .orderBy('seq')
        .execute();
      expect(seqs.map((row) => Number(row.seq))).toEqual([...Array(120).keys()]);
    } finally {
      await other.close();
    }
  });
});

/** The rows of `ids` in both tables, with every time set to 0. */
async function rowsOf(database: HarnessDatabase, ids: string[]) {
  const tasks = await database.db
    .selectFrom('a2a_harness_tasks' as never)
    .selectAll()
    .where('id' as never, 'in', ids as never)
    .orderBy('id' as never)
    .execute();
  const messages = await database.db
    .selectFrom(MESSAGES_TABLE)
    .selectAll()
    .where('task_id', 'in', ids)
    .orderBy('task_id')
    .orderBy('seq')
    .execute();
  const untimed = (value: unknown) =>
    typeof value === 'string' ? value.replace(/"timestamp":"[^"]*"/g, '"timestamp":0') : value;
  return {
    tasks: tasks.map((row) =>
      Object.fromEntries(
        Object.entries(row as Record<string, unknown>).map(([key, value]) => [
          key,
          key === 'updated_ms'
            ? 0
            : // Built by PostgreSQL's JSON functions there: the same JSON, spaced differently.
              key === 'status' && typeof value === 'string'
              ? { ...(JSON.parse(value) as object), timestamp: 0 }
              : untimed(value),
        ]),
      ),
    ),
    messages: messages.map((row) => ({ ...row, seq: Number(row.seq) })),
  };
}

it('PostgreSQL stores the same rows as SQLite for the same commands', async () => {
  const history = [message('hello'), message('hi', Role.ROLE_AGENT)];
  const task = newTask(history, { model: 'a', command: 'tag' }, TaskState.TASK_STATE_WORKING);
  const fork = newTask([message('copied')]);
  const untouched = newTask([], undefined as unknown as TaskMetadata);
  const reply = (text: string) => message(text, Role.ROLE_AGENT);
  const [first, second, third] = [reply('one'), reply('two'), reply('three')];
  const commands = [message('/set b'), message('/fork'), message('/ping')];
  // Ids are the client's to choose: ones JSON must escape are stored as they were sent.
  fork.contextId = 'fork \u001b "quoted" \\ \u{1F600}';
  commands[1]!.messageId = `${crypto.randomUUID()} \u0007 '`;
  const dumps = [];
  for (const kind of ['sqlite', 'postgres'] as const) {
    const database = await openTestDatabase(kind);
    try {
      const each = new HarnessTaskStore(database.db);
      const context = alice();
      await each.create(task, context, { subtasks: [untouched] });
      await each.loadHead(task.id, context);
      await each.appendReply(task.id, [commands[0]!, first], first, context, {
        metadata: (m) => ({ ...m, model: 'b', task_ref: 'tag' }),
      });
      await each.appendReply(task.id, [commands[1]!, second], second, context, {
        subtasks: [fork],
      });
      await each.appendReply(task.id, [commands[2]!, third], third, context);
      await each.appendReply(untouched.id, [commands[2]!, third], third, context);
      dumps.push(await rowsOf(database, [task.id, fork.id, untouched.id]));
    } finally {
      await database.close();
    }
  }
  const [sqlite, postgres] = dumps;
  expect(postgres!.messages).toHaveLength(11);
  expect(postgres!.tasks).toHaveLength(3);
  expect(postgres).toEqual(sqlite);
});

it('on PostgreSQL, ids with lone surrogates are stored alike by the command and the change functions, not refused', async () => {
  // SQLite keeps a lone surrogate's bytes as they are; PostgreSQL's driver sends U+FFFD in its place.
  const database = await openTestDatabase('postgres');
  try {
    // A quota (far above what other files store for alice in this shared database) makes new
    // tasks with copied history a call of the change functions' create.
    const store = new HarnessTaskStore(database.db, { historyCharsPerOwner: 1e12 });
    const contextId = 'ctx \uD800 end';
    const lean = { ...newTask(), contextId };
    const checked = { ...newTask(), contextId };
    const copy = { ...newTask([message('copied')]), contextId };
    await store.create(lean, alice());
    await store.create(checked, alice(), { subtasks: [copy] });
    const command = { ...message('/ping'), messageId: `${crypto.randomUUID()} \uDC00` };
    const reply = message('pong', Role.ROLE_AGENT);
    await store.appendReply(lean.id, [command, reply], reply, alice());
    await store.update(checked.id, alice(), { append: [command] });
    const { tasks, messages } = await rowsOf(database, [lean.id, checked.id]);
    expect(tasks.map((row) => row.context_id)).toEqual(['ctx \uFFFD end', 'ctx \uFFFD end']);
    const commandIds = messages.filter((row) => row.message_id !== reply.messageId);
    expect(commandIds.map((row) => row.message_id)).toEqual([
      command.messageId.replace('\uDC00', '\uFFFD'),
      command.messageId.replace('\uDC00', '\uFFFD'),
    ]);
  } finally {
    await database.close();
  }
});
