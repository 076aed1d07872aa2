import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AnyKysely } from './advisory-locks.js';
import {
  HARNESS_MIGRATIONS_TABLE,
  needsSdkMigrations,
  TASKS_TABLE_MIGRATION,
} from './migrations.js';
import { hasSdkTasksTable } from './sdk-tasks-table.js';

/** A SQLite file holding `statements`' tables, read through Kysely as the harness reads it. */
async function withFile<T>(statements: string[], read: (db: AnyKysely) => Promise<T>): Promise<T> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-sdk-tables-')), 'tasks.db');
  const database = new SqliteDatabase(file);
  for (const statement of statements) database.exec(statement);
  const db = new Kysely({ dialect: new SqliteDialect({ database }) });
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

const SDK_TASKS = 'create table tasks (id text primary key)';
const HARNESS_MIGRATIONS = `create table ${HARNESS_MIGRATIONS_TABLE} (name varchar(255) primary key, timestamp varchar(255))`;
const recorded = (name: string) =>
  `insert into ${HARNESS_MIGRATIONS_TABLE} values ('${name}', '2026-12-01T00:00:00.000Z')`;

describe("whether the SDK's migrations must run first", () => {
  it.each([
    { database: 'a new one', statements: [], needed: false },
    {
      database: "a previous release's, from before the harness kept migrations",
      statements: [SDK_TASKS],
      needed: true,
    },
    {
      database: "a previous release's, its tasks not yet copied",
      statements: [SDK_TASKS, HARNESS_MIGRATIONS, recorded('0007-instance-names')],
      needed: true,
    },
    {
      database: 'one its tasks were copied from',
      statements: [SDK_TASKS, HARNESS_MIGRATIONS, recorded(TASKS_TABLE_MIGRATION)],
      needed: false,
    },
    {
      database: "one made without the SDK's table",
      statements: [HARNESS_MIGRATIONS, recorded(TASKS_TABLE_MIGRATION)],
      needed: false,
    },
  ])('$database: $needed', async ({ statements, needed }) => {
    expect(await withFile(statements, needsSdkMigrations)).toBe(needed);
    expect(await withFile(statements, hasSdkTasksTable)).toBe(statements.includes(SDK_TASKS));
  });
});
