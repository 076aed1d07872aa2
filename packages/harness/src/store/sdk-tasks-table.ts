import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PostgresAdapter, sql } from 'kysely';
import type { AnyKysely } from './advisory-locks.js';

/**
 * The SDK's task table. The harness's own table replaced it (migration
 * 0008); it stays only in databases made before, as the source of 0008's copy
 * and of the row type the previous release's PostgreSQL functions take.
 */
export const SDK_TASKS_TABLE = 'tasks';

/** The names among `tables` of the tables `db` has, by the name an unqualified query resolves. */
export async function existingTables(db: AnyKysely, tables: string[]): Promise<Set<string>> {
  const query =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? sql<{ name: string }>`select name from unnest(${tables}::text[]) as name
          where to_regclass(name) is not null`
      : sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name in (${sql.join(tables)})`;
  const { rows } = await query.execute(db);
  return new Set(rows.map((row) => row.name));
}

/** Whether `db` holds the SDK's task table: only a database made before migration 0008 does. */
export async function hasSdkTasksTable(db: AnyKysely): Promise<boolean> {
  return (await existingTables(db, [SDK_TASKS_TABLE])).has(SDK_TASKS_TABLE);
}

/** Runs the SDK's task-table migrations on the database at `url`. */
export type SdkMigrationRunner = (url: string) => Promise<void>;

const execFileAsync = promisify(execFile);

/**
 * The SDK ships its task-table migrations only as the `a2a-db` command, so the
 * harness runs that command, with the same Node.
 */
export const runSdkMigrations: SdkMigrationRunner = async (url) => {
  const sdkEntry = fileURLToPath(import.meta.resolve('@a2a-js/sdk'));
  const cli = path.join(path.dirname(sdkEntry), 'cli', 'a2a_db.js');
  await execFileAsync(process.execPath, [cli, 'upgrade', '--url', url], { timeout: 60_000 });
};
