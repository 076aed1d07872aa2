import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, redactUrl, sqliteConnectionOf, SQLITE_PAGE_SIZE } from './database.js';
import { runSdkMigrations } from './sdk-tasks-table.js';

describe('database URLs in messages', () => {
  it('lose their password', () => {
    expect(redactUrl('postgres://app:s3cret@db.internal:5432/tasks')).toBe(
      'postgres://app:***@db.internal:5432/tasks',
    );
    expect(redactUrl('sqlite:/data/tasks.db')).toBe('sqlite:/data/tasks.db');
  });

  it('a server that cannot be reached is named without the password', async () => {
    const failure = await openDatabase('postgres://app:s3cret-pw@127.0.0.1:1/tasks').then(
      () => expect.fail('opened'),
      (error: Error) => error.message,
    );
    expect(failure).toContain('postgres://app:***@127.0.0.1:1/tasks');
    expect(failure).not.toContain('s3cret-pw');
  });
});

describe('a SQLite file', () => {
  const newFile = () =>
    path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-database-')), 'data', 'tasks.db');
  const pageSizeOf = (file: string) => {
    const raw = new SqliteDatabase(file, { readonly: true });
    try {
      return raw.pragma('page_size', { simple: true });
    } finally {
      raw.close();
    }
  };

  it("is created with the harness page size, and the harness's tables in it", async () => {
    const file = newFile();
    const database = await openDatabase(`sqlite:${file}`);
    try {
      const tables = await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table'`
        .execute(database.db)
        .then((result) => result.rows.map((row) => row.name));
      expect(tables).toEqual(expect.arrayContaining(['a2a_harness_tasks', 'a2a_harness_messages']));
      expect(tables).not.toContain('tasks');
    } finally {
      await database.close();
    }
    expect(SQLITE_PAGE_SIZE).toBe(8192);
    expect(pageSizeOf(file)).toBe(SQLITE_PAGE_SIZE);
  });

  it('made before keeps its page size and its rows', async () => {
    const file = newFile();
    mkdirSync(path.dirname(file));
    const before = new SqliteDatabase(file);
    before.exec("create table notes (text text); insert into notes values ('kept')");
    before.close();
    const database = await openDatabase(`sqlite:${file}`);
    try {
      const notes = await sql<{ text: string }>`select text from notes`.execute(database.db);
      expect(notes.rows).toEqual([{ text: 'kept' }]);
    } finally {
      await database.close();
    }
    expect(pageSizeOf(file)).toBe(4096);
  });

  it("keeps the journals of a group commit's savepoints in memory, not in temporary files", async () => {
    const database = await openDatabase(`sqlite:${newFile()}`);
    try {
      // 2 = MEMORY.
      expect(sqliteConnectionOf(database.db)!.pragma('temp_store', { simple: true })).toBe(2);
    } finally {
      await database.close();
    }
  });
});

describe("the SDK's migrations (its `a2a-db` tool, a process of its own)", () => {
  const tablesOf = (file: string) => {
    const raw = new SqliteDatabase(file, { readonly: true });
    try {
      return raw.prepare(`select name from sqlite_master where type = 'table'`).pluck().all();
    } finally {
      raw.close();
    }
  };
  /** Opens and closes `file`, counting the runs of the SDK's tool, which really run. */
  const openCounting = async (file: string, runs: string[]) => {
    const database = await openDatabase(`sqlite:${file}`, [], {}, undefined, async (url) => {
      runs.push(url);
      await runSdkMigrations(url);
    });
    await database.close();
  };

  it("never run on a new file, nor when it opens again, and the SDK's table is never made", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-database-')), 'tasks.db');
    const runs: string[] = [];
    await openCounting(file, runs);
    await openCounting(file, runs);
    expect(runs).toEqual([]);
    expect(tablesOf(file)).toContain('a2a_harness_tasks');
    expect(tablesOf(file)).not.toContain('tasks');
  });

  it('run once on a file of the previous release, whose tasks are still to copy, and not after', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-database-')), 'tasks.db');
    copyFileSync(new URL('../../test/fixtures/release-tasks.db', import.meta.url), file);
    const runs: string[] = [];
    await openCounting(file, runs);
    expect(runs).toEqual([`sqlite:${file}`]);
    await openCounting(file, runs);
    expect(runs).toHaveLength(1);
    const raw = new SqliteDatabase(file, { readonly: true });
    try {
      const copied = raw.prepare('select count(*) from a2a_harness_tasks').pluck().get();
      expect(copied).toBe(raw.prepare('select count(*) from tasks').pluck().get());
      expect(copied).toBeGreaterThan(0);
    } finally {
      raw.close();
    }
  });
});
