/**
 * The harness's tasks table has only the indexes its reads need, and every
 * read of it uses one: each statement the store prepares on a SQLite file is
 * explained (EXPLAIN QUERY PLAN). No read scans the table, and no index goes
 * unused, since each one costs every new task a page written: the pages a
 * new task's commit writes are counted in the WAL. The history table has its
 * two keys and nothing more.
 */
import { mkdtempSync, statSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES_TABLE } from '../src/store/messages-table.js';
import {
  HarnessTaskStore,
  openDatabase,
  sqliteConnectionOf,
  type HarnessDatabase,
} from '../src/store/index.js';

const TABLE = 'a2a_harness_tasks';
const alice = new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } });

let database: HarnessDatabase;
const prepared = new Set<string>();
const plans = new Map<string, string>();

function newTask(state: TaskState, contextId: string): Task {
  return {
    id: crypto.randomUUID(),
    contextId,
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    history: [],
    artifacts: [],
    metadata: {},
  };
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-task-indexes-'));
  database = await openDatabase(`sqlite:${path.join(dir, 'tasks.db')}`);
  const connection = sqliteConnectionOf(database.db)!;
  const prepare = connection.prepare.bind(connection);
  // Every statement the store prepares, raw or through kysely, as SQLite gets it.
  connection.prepare = ((source: string) => {
    prepared.add(source);
    return prepare(source);
  }) as typeof connection.prepare;
  const store = new HarnessTaskStore(database.db, { historyCharsPerOwner: 1_000_000 });
  const working = newTask(TaskState.TASK_STATE_WORKING, 'ctx');
  await store.create(newTask(TaskState.TASK_STATE_INPUT_REQUIRED, 'ctx'), alice);
  await store.create(working, alice);
  await store.loadHead(working.id, alice);
  await store.load(working.id, alice);
  for (const params of [{}, { contextId: 'ctx' }, { status: TaskState.TASK_STATE_WORKING }])
    await store.list({ tenant: '', pageSize: 10, pageToken: '', ...params } as never, alice);
  await store.latestTaskInContext('ctx', alice);
  await store.tasksLeftRunning();
  await store.strandedSubtasks(0);
  await store.historyQuotaLeft(alice);
  await store.findReply(working.id, 'a-command');
  for (const source of prepared) {
    if (!source.includes(TABLE) || !/^\s*select/i.test(source)) continue;
    const parameters = Array.from(source.matchAll(/\?/g), () => null);
    const rows = prepare(`explain query plan ${source}`).all(...parameters) as { detail: string }[];
    plans.set(source, rows.map((row) => row.detail).join('\n'));
  }
});

afterAll(() => database?.close());

describe("the harness's tasks table on SQLite", () => {
  it('no read of it scans the table', () => {
    expect(plans.size).toBeGreaterThanOrEqual(10);
    for (const [source, plan] of plans) {
      expect({ source, plan }).not.toMatchObject({
        plan: expect.stringMatching(/SCAN (a2a_harness_tasks|t)\b(?! USING)/),
      });
    }
  });

  it('the sweeps read the index of running tasks; a head is read by its key', () => {
    const planOf = (part: string) =>
      [...plans].find(([source]) => source.includes(part))?.[1] ?? '';
    expect(planOf("'TASK_STATE_SUBMITTED'")).toContain(`${TABLE}_state`);
    expect(planOf('select context_id, status, metadata from')).toMatch(
      /USING INDEX sqlite_autoindex/,
    );
  });

  it('every index of it is one a read uses', () => {
    const indexes = sqliteConnectionOf(database.db)!
      .prepare(`select name from sqlite_master where type = 'index' and tbl_name = ?`)
      .pluck()
      .all(TABLE) as string[];
    const used = [...plans.values()].join('\n');
    expect(indexes.length).toBe(4);
    for (const index of indexes) expect(used).toContain(index);
  });
});

describe("the harness's history table on SQLite", () => {
  it('has only its two keys: a reply is found from its command onwards, by the first', () => {
    const connection = sqliteConnectionOf(database.db)!;
    const indexes = connection
      .prepare(`select name from sqlite_master where type = 'index' and tbl_name = ?`)
      .pluck()
      .all(MESSAGES_TABLE);
    expect(indexes).toEqual([
      `sqlite_autoindex_${MESSAGES_TABLE}_1`,
      `sqlite_autoindex_${MESSAGES_TABLE}_2`,
    ]);
    const replyRead = [...prepared].find((source) => source.includes('reply_to = '));
    const plan = connection
      .prepare(`explain query plan ${replyRead}`)
      .all({ task: '', command: '' }) as { detail: string }[];
    expect(plan.map((row) => row.detail)).toEqual([
      `SEARCH ${MESSAGES_TABLE} USING INDEX sqlite_autoindex_${MESSAGES_TABLE}_1 (task_id=? AND seq>?)`,
      'SCALAR SUBQUERY 1',
      `SEARCH ${MESSAGES_TABLE} USING INDEX sqlite_autoindex_${MESSAGES_TABLE}_2 (task_id=? AND message_id=?)`,
    ]);
  });
});

function text(role: Role, value: string): Message {
  return {
    messageId: crypto.randomUUID(),
    taskId: '',
    contextId: '',
    role,
    parts: [
      { content: { $case: 'text', value }, mediaType: '', filename: '', metadata: undefined },
    ],
    metadata: { command: 'help' },
    extensions: [],
    referenceTaskIds: [],
  };
}

describe('a new task on SQLite', () => {
  it("writes fewer than 9.5 pages on average (the SDK's table took 11): the task's row, its key and two indexes; two messages and their two keys; now and then a split", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-task-pages-'));
    const file = path.join(dir, 'tasks.db');
    // No checkpoint while counting: every page the commit writes stays in the WAL.
    const opened = await openDatabase(`sqlite:${file}`, [], { checkpointMs: 3_600_000 });
    try {
      const store = new HarnessTaskStore(opened.db);
      const connection = sqliteConnectionOf(opened.db)!;
      const pageSize = Number(connection.pragma('page_size', { simple: true }));
      const framesInWal = () => Math.max(0, (statSync(`${file}-wal`).size - 32) / (pageSize + 24));
      // Tasks made first, as on a server in use: the trees have more than a root page.
      const made = 100;
      const counted = 100;
      for (let i = 0; i < made + counted; i++) {
        const command = text(Role.ROLE_USER, '/help');
        const reply = text(Role.ROLE_AGENT, 'Commands: '.repeat(150));
        const task = newTask(TaskState.TASK_STATE_INPUT_REQUIRED, store.newId());
        task.id = store.newId();
        task.history = [command, reply];
        task.status!.message = reply;
        if (i === made) connection.pragma('wal_checkpoint(TRUNCATE)');
        await store.create(task, alice);
      }
      // Each commit appends the pages it changed; a page split now and then adds a few.
      const pagesPerTask = framesInWal() / counted;
      expect(pagesPerTask).toBeLessThan(9.5);
    } finally {
      await opened.close();
    }
  });
});
