/**
 * A task change and its turn row are one write on PostgreSQL: the row is
 * written with the change or not at all, and a row the change depends on
 * vetoes it when it is gone. Each case reads the rows back with its own
 * connection.
 */
import { TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { waitFor } from 'a2a-testing/http';
import { createClusterTables } from '../src/cluster/index.js';
import { LOCK_CLASS } from '../src/store/advisory-locks.js';
import {
  HarnessTaskStore,
  openDatabase,
  TURNS_TABLE,
  type HarnessDatabase,
  type RemovedTurn,
} from '../src/store/index.js';
import { textMessage } from 'a2a-commands/client';

const alice = new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } });

/** A user message of `text` in the tasks' context. */
const message = (text: string): Message => textMessage(text, { contextId: 'ctx' });

function newTask(): Task {
  return {
    id: crypto.randomUUID(),
    contextId: 'ctx',
    status: { state: TaskState.TASK_STATE_INPUT_REQUIRED, message: undefined, timestamp: '' },
    history: [message('first')],
    artifacts: [],
    metadata: {},
  };
}

const working = () => ({
  state: TaskState.TASK_STATE_WORKING,
  message: undefined,
  timestamp: new Date().toISOString(),
});

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let opened: HarnessDatabase;
let store: HarnessTaskStore;
let client: pg.Client;

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_turn_row_writes');
  opened = await openDatabase(database.url, [createClusterTables]);
  store = new HarnessTaskStore(opened.db);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await opened?.close();
  await database?.drop();
});

async function rowsOf(
  taskId: string,
): Promise<{ id: string; turn_id: string; instance: string | null }[]> {
  const { rows } = await client.query(
    `select id::text, turn_id, instance from ${TURNS_TABLE} where task_id = $1 order by id`,
    [taskId],
  );
  return rows;
}

async function textsOf(taskId: string): Promise<string[]> {
  const task = await store.load(taskId, alice);
  return (task?.history ?? []).map((m) => {
    const content = m.parts[0]?.content;
    return content?.$case === 'text' ? content.value : '';
  });
}

const full = new Error('the queue is full');

describe('turn row writes, in the same call as the task change', () => {
  it("a new task's first turn is queued with it", async () => {
    const task = newTask();
    await store.create(
      task,
      alice,
      {},
      { kind: 'queue', turnId: 'turn-1', limit: 0, whenFull: full },
    );
    expect((await rowsOf(task.id)).map((row) => row.turn_id)).toEqual(['turn-1']);
  });

  it('a message past the queue limit is refused with the given error, and neither it nor its row is stored', async () => {
    const task = newTask();
    await store.create(task, alice);
    const queue = (turnId: string, text: string) =>
      store.update(task.id, alice, {
        append: [message(text)],
        appendOnce: true,
        status: working,
        turnRow: { kind: 'queue', turnId, limit: 1, whenFull: full },
      });
    expect(await queue('a', 'runs')).toBeDefined();
    expect(await queue('b', 'waits')).toBeDefined();
    await expect(queue('c', 'refused')).rejects.toBe(full);
    expect((await rowsOf(task.id)).map((row) => row.turn_id)).toEqual(['a', 'b']);
    expect(await textsOf(task.id)).toEqual(['first', 'runs', 'waits']);
  });

  it("a turn's write fenced by a row it no longer holds is vetoed, and one it holds goes through", async () => {
    const task = newTask();
    await store.create(task, alice, {}, { kind: 'queue', turnId: 't', limit: 0, whenFull: full });
    const [row] = await rowsOf(task.id);
    await client.query(`update ${TURNS_TABLE} set instance = 'other' where id = $1`, [row!.id]);
    const fenced = await store.update(task.id, alice, {
      append: [message('from the fenced-out instance')],
      status: working,
      turnRow: { kind: 'fence', rowId: row!.id, instance: 'me' },
    });
    expect(fenced).toBeUndefined();
    expect(await textsOf(task.id)).toEqual(['first']);
    expect((await store.loadHead(task.id, alice))?.status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    const held = await store.update(task.id, alice, {
      append: [message('from the instance that holds it')],
      turnRow: { kind: 'fence', rowId: row!.id, instance: 'other' },
    });
    expect(held).toBeDefined();
    expect(await textsOf(task.id)).toEqual(['first', 'from the instance that holds it']);
  });

  it("an ending by another hand removes the turn's row, and is vetoed once the row is gone", async () => {
    const task = newTask();
    await store.create(task, alice, {}, { kind: 'queue', turnId: 't', limit: 0, whenFull: full });
    await client.query(`update ${TURNS_TABLE} set instance = 'dead' where task_id = $1`, [task.id]);
    const takeOver = () =>
      store.update(task.id, alice, {
        append: [message('interrupted')],
        turnRow: { kind: 'removeClaimed', turnId: 't', instance: 'dead' },
      });
    expect(await takeOver()).toBeDefined();
    expect(await rowsOf(task.id)).toEqual([]);
    expect(await takeOver()).toBeUndefined();
    expect(await textsOf(task.id)).toEqual(['first', 'interrupted']);
  });

  it('a cancel removes every turn row of the task, and says which it removed', async () => {
    const task = newTask();
    await store.create(task, alice, {}, { kind: 'queue', turnId: 'a', limit: 0, whenFull: full });
    await store.update(task.id, alice, {
      turnRow: { kind: 'queue', turnId: 'b', limit: 5, whenFull: full },
    });
    await client.query(`update ${TURNS_TABLE} set instance = 'me' where turn_id = 'a'`);
    const removeAll = { kind: 'removeAll' as const, removed: [] as RemovedTurn[] };
    const canceled = await store.update(task.id, alice, {
      status: () => ({
        state: TaskState.TASK_STATE_CANCELED,
        message: undefined,
        timestamp: new Date().toISOString(),
      }),
      turnRow: removeAll,
    });
    expect(canceled?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(removeAll.removed.sort((x, y) => x.turnId.localeCompare(y.turnId))).toEqual([
      { turnId: 'a', instance: 'me' },
      { turnId: 'b', instance: null },
    ]);
    expect(await rowsOf(task.id)).toEqual([]);
  });

  it('a change computed from a head that moved on is computed again from the stored one, and nothing is lost', async () => {
    const task = newTask();
    await store.create(task, alice);
    // Hold the task's lock, so that the change's call waits for it after computing from the head it read.
    const lockArgs = [LOCK_CLASS.task, task.id];
    await client.query('select pg_advisory_lock($1, hashtext($2))', lockArgs);
    let computed = 0;
    const change = store.update(task.id, alice, {
      metadata: (current) => {
        computed++;
        return { ...current, mine: computed };
      },
    });
    await waitFor(async () => {
      const { rows } = await client.query(
        `select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted`,
      );
      return rows[0].waiting > 0 ? true : undefined;
    }, "the change's call to wait for the task's lock");
    await client.query(`update a2a_harness_tasks set metadata = '{"other":true}' where id = $1`, [
      task.id,
    ]);
    await client.query('select pg_advisory_unlock($1, hashtext($2))', lockArgs);
    expect((await change)?.metadata).toEqual({ other: true, mine: 2 });
    expect(computed).toBe(2);
    expect((await store.loadHead(task.id, alice))?.metadata).toEqual({ other: true, mine: 2 });
  });
});

describe('a change from the head its request last saw', () => {
  /** A request of alice's of its own: what it reads is remembered for its writes. */
  const request = () =>
    new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } });

  it('starts from that head, and from the stored one when another write has moved it on', async () => {
    const task = newTask();
    await store.create(task, alice);
    const mine = request();
    await store.loadHead(task.id, mine);
    await store.update(task.id, alice, { metadata: (current) => ({ ...current, other: true }) });
    let computed = 0;
    const count = (current: Record<string, unknown>) => ({ ...current, mine: ++computed });
    expect((await store.update(task.id, mine, { metadata: count }))?.metadata).toEqual({
      other: true,
      mine: 2,
    });
    expect(computed).toBe(2);
    // Its own write is what it saw last: the next change is computed once.
    expect((await store.update(task.id, mine, { metadata: count }))?.metadata).toEqual({
      other: true,
      mine: 3,
    });
    expect(computed).toBe(3);
  });

  it('is refused only by the stored head, not by one the request remembers', async () => {
    const task = newTask();
    await store.create(task, alice);
    const closed = (value: boolean) => (current: Record<string, unknown>) => ({
      ...current,
      closed: value,
    });
    const closing = {
      refuse: (head: { metadata?: Record<string, unknown> }) =>
        head.metadata?.['closed'] ? full : undefined,
      metadata: (current: Record<string, unknown>) => ({ ...current, after: true }),
    };
    await store.update(task.id, alice, { metadata: closed(true) });
    const mine = request();
    await store.loadHead(task.id, mine);
    await store.update(task.id, alice, { metadata: closed(false) });
    expect((await store.update(task.id, mine, closing))?.metadata).toEqual({
      closed: false,
      after: true,
    });
    await store.update(task.id, alice, { metadata: closed(true) });
    await expect(store.update(task.id, mine, closing)).rejects.toBe(full);
  });
});
