/**
 * A database made by the previous release (test/fixtures, made by
 * make-release-databases.ts) opens with this one: its tasks, histories and
 * metadata are all there, and every command stored before replies were linked
 * to their commands still gets its own stored reply when it is sent again.
 * Its tasks move to the harness's own table: GetTask, ListTasks and
 * SubscribeToTask answer exactly what the release answered
 * (record-release-reads.ts recorded that).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/store/index.js';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';
import { releaseReads } from './fixtures/release-reads.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));

interface Manifest {
  tasks: string[];
  replies: { taskId: string; command: { messageId: string }; replyId: string }[];
  turns: { taskId: string; message: { messageId: string; parts: { text: string }[] } }[];
}

const manifestOf = (name: string): Manifest =>
  JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as Manifest;

/** A database for a harness to start on, and a way to look into it from outside. */
interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  options: { dataDir: string } | { databaseUrl: string };
  /** Runs one statement on its own connection; the rows it returns. */
  query(statement: string): Promise<unknown[]>;
  drop(): Promise<void>;
}

function sqliteDatabase(dataDir: string): TestDatabase {
  return {
    kind: 'sqlite',
    options: { dataDir },
    query: async (statement) => {
      const raw = new SqliteDatabase(path.join(dataDir, 'tasks.db'));
      try {
        const prepared = raw.prepare(statement);
        return prepared.reader ? prepared.all() : (prepared.run(), []);
      } finally {
        raw.close();
      }
    },
    drop: async () => undefined,
  };
}

function postgresDatabase(database: { url: string; drop(): Promise<void> }): TestDatabase {
  return {
    kind: 'postgres',
    options: { databaseUrl: database.url },
    query: async (statement) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query(statement)).rows;
      } finally {
        await client.end();
      }
    },
    drop: database.drop,
  };
}

/** Whether a table of that name exists, as SQL in either kind can say it. */
const tableExists = async (database: TestDatabase, table: string) =>
  (
    await database.query(
      database.kind === 'sqlite'
        ? `select name from sqlite_master where type = 'table' and name = '${table}'`
        : `select to_regclass('${table}') as name`,
    )
  ).some((row) => (row as { name: unknown }).name !== null);

async function releaseSqlite(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-release-'));
  copyFileSync(path.join(fixtures, 'release-tasks.db'), path.join(dataDir, 'tasks.db'));
  return sqliteDatabase(dataDir);
}

async function releasePostgres(): Promise<TestDatabase> {
  const database = await freshPostgresDatabase('release');
  execFileSync('psql', [
    '--quiet',
    '--set=ON_ERROR_STOP=1',
    '--dbname',
    database.url,
    '--file',
    path.join(fixtures, 'release-postgres.sql'),
  ]);
  return postgresDatabase(database);
}

describe.each([
  {
    kind: 'sqlite',
    open: releaseSqlite,
    manifest: manifestOf('release-sqlite.json'),
    reads: 'release-sqlite-reads.json',
  },
  {
    kind: 'postgres',
    open: releasePostgres,
    manifest: manifestOf('release-postgres.json'),
    reads: 'release-postgres-reads.json',
  },
])('a database made by the previous release, on $kind', ({ open, manifest, reads }) => {
  let harness: TestHarness | undefined;
  let release: TestDatabase | undefined;
  afterAll(async () => {
    await harness?.stop();
    await release?.drop();
  });

  it('keeps every task, message and setting, and each old command sent again gets its own reply', async () => {
    release = await open();
    harness = await startHarness({ ...release.options, config: { offline: { latencyMs: 0 } } });
    const url = harness.url;
    const recorded = JSON.parse(readFileSync(path.join(fixtures, reads), 'utf8')) as Record<
      string,
      unknown
    >;
    // JSON-RPC ids count this client's calls: only the results are compared.
    const withoutIds = (value: unknown) =>
      JSON.parse(JSON.stringify(value), (key, inner: unknown) =>
        key === 'id' && typeof inner === 'number' ? undefined : inner,
      );
    expect(withoutIds(await releaseReads(url, manifest.tasks))).toEqual(withoutIds(recorded));
    const listed = (await rpc(url, 'ListTasks', {})).body.result.tasks as { id: string }[];
    for (const taskId of manifest.tasks) expect(listed.map((t) => t.id)).toContain(taskId);
    const first = (await rpc(url, 'GetTask', { id: manifest.tasks[0] })).body.result;
    expect(first.metadata['a2a-harness']).toMatchObject({
      title: 'An old task',
      model: 'offline/echo',
    });
    const historyBefore = first.history.map((m: { messageId: string }) => m.messageId);
    for (const { taskId, command, replyId } of manifest.replies) {
      const again = await rpc(url, 'SendMessage', { message: command });
      expect(again.body.error).toBeUndefined();
      expect(again.body.result.task.id).toBe(taskId);
      expect(again.body.result.task.status.message.messageId).toBe(replyId);
    }
    for (const { taskId, message } of manifest.turns) {
      const again = await rpc(url, 'SendMessage', { message: { ...message, taskId } });
      const answer = again.body.result.task.status.message;
      expect(answer.parts[0].text).toContain(`You said: ${message.parts[0]!.text}`);
    }
    // Nothing ran again, and the task goes on.
    const after = (await rpc(url, 'GetTask', { id: manifest.tasks[0] })).body.result;
    expect(after.history.map((m: { messageId: string }) => m.messageId)).toEqual(historyBefore);
    const next = await rpc(url, 'SendMessage', {
      message: userText('/title A newer title', { taskId: manifest.tasks[0] }),
    });
    expect(next.body.result.task.status.message.metadata).toEqual({ command: 'title' });
  });

  it("opens again without running the SDK's migrations, whose lock row, taken away, stays away", async () => {
    await harness!.stop();
    harness = undefined;
    // The SDK's tool puts its lock row back whenever it runs, even with nothing to migrate.
    await release!.query(`delete from a2a_migrations_lock`);
    harness = await startHarness({ ...release!.options, config: { offline: { latencyMs: 0 } } });
    expect(await release!.query(`select id from a2a_migrations_lock`)).toEqual([]);
    const task = await rpc(harness.url, 'GetTask', { id: manifest.tasks[0] });
    expect(task.body.result.metadata['a2a-harness'].title).toBe('A newer title');
  });
});

describe.each([
  {
    kind: 'sqlite',
    open: async () => sqliteDatabase(mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-new-'))),
  },
  { kind: 'postgres', open: async () => postgresDatabase(await freshPostgresDatabase('new')) },
])('a new database on $kind', ({ open }) => {
  it("never gets the SDK's tables: not at a start, nor with a command and a turn, nor at the next start", async () => {
    const database = await open();
    const config = { offline: { latencyMs: 0 } };
    let harness = await startHarness({ ...database.options, config });
    try {
      const turn = await rpc(harness.url, 'SendMessage', { message: userText('hello') });
      const taskId = turn.body.result.task.id as string;
      const command = await rpc(harness.url, 'SendMessage', {
        message: userText('/title Kept', { taskId }),
      });
      expect(command.body.result.task.status.message.metadata).toEqual({ command: 'title' });
      await harness.stop();
      harness = await startHarness({ ...database.options, config });
      const task = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
      expect(task.metadata['a2a-harness'].title).toBe('Kept');
      for (const table of ['tasks', 'a2a_tasks_migrations', 'a2a_migrations_lock'])
        expect({ table, exists: await tableExists(database, table) }).toEqual({
          table,
          exists: false,
        });
    } finally {
      await harness.stop();
      await database.drop();
    }
  });
});

describe('the harness tables on a new PostgreSQL database', () => {
  it('instances opening it together migrate it once, each to the latest version', async () => {
    const fresh = await freshPostgresDatabase('migrate');
    try {
      const opened = await Promise.all([1, 2, 3].map(() => openDatabase(fresh.url)));
      const { rows } = await sql<{
        name: string;
      }>`select name from a2a_harness_migrations order by name`.execute(opened[0]!.db);
      expect(rows.map((row) => row.name)).toEqual([
        '0001-messages',
        '0002-reply-links',
        '0003-append-reply-v3',
        '0005-instance-leases',
        '0006-push-configs',
        '0007-instance-names',
        '0008-tasks-table',
        '0009-turn-functions',
        '0010-turn-functions-v2',
        '0011-change-functions',
        '0012-reply-links-unindexed',
      ]);
      await Promise.all(opened.map((database) => database.close()));
    } finally {
      await fresh.drop();
    }
  });

  it("the previous release's append, called as an instance of it would, still stores a command", async () => {
    const fresh = await freshPostgresDatabase('shim');
    execFileSync('psql', [
      '--quiet',
      '--set=ON_ERROR_STOP=1',
      '--dbname',
      fresh.url,
      '--file',
      path.join(fixtures, 'release-postgres.sql'),
    ]);
    const database = await openDatabase(fresh.url);
    try {
      const manifest = manifestOf('release-postgres.json');
      const taskId = manifest.tasks[1]!;
      const messageId = crypto.randomUUID();
      const message = { messageId, role: 'ROLE_AGENT', parts: [{ text: 'from an old instance' }] };
      // What the previous release sent: rows without a link, the status without its opening brace.
      const statusTail = JSON.stringify({ message, timestamp: new Date().toISOString() }).slice(1);
      await sql`select * from a2a_harness_append_reply_v1('', 'unknown', ${taskId},
        ${JSON.stringify([{ message_id: messageId, message: JSON.stringify(message) }])},
        ${statusTail}, ${Date.now()}, false, null, null, null, null)`.execute(database.db);
      const { rows } = await sql<{
        status: string;
      }>`select status from a2a_harness_tasks where id = ${taskId}`.execute(database.db);
      const status = JSON.parse(rows[0]!.status) as {
        state: string;
        message: { messageId: string };
      };
      expect(status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(status.message.messageId).toBe(messageId);
    } finally {
      await database.close();
      await fresh.drop();
    }
  });
});
