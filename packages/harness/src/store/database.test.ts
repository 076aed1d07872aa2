import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, redactUrl, sqliteConnectionOf, SQLITE_PAGE_SIZE } from './database.js';

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

  it('is created with the harness page size, and the SDK tables in it', async () => {
    const file = newFile();
    const database = await openDatabase(`sqlite:${file}`);
    try {
      const tables = await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table'`
        .execute(database.db)
        .then((result) => result.rows.map((row) => row.name));
      expect(tables).toEqual(expect.arrayContaining(['a2a_harness_tasks', 'a2a_harness_messages']));
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
