import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type HarnessDatabase } from 'a2a-harness';
import { freshPostgresDatabase } from './databases.js';
import { testPostgresUrl } from './postgres-server.js';

export type StoreKind = 'sqlite' | 'postgres';
/** The stores every test that runs on both runs on, in this order. */
export const storeKinds: StoreKind[] = ['sqlite', 'postgres'];

/**
 * A file that imports this module runs on both stores, so it waits here for
 * the run's PostgreSQL server, which starts for the first such file.
 */
const postgresUrl = await testPostgresUrl();

/** A fresh SQLite file, or the test PostgreSQL server (tasks use fresh UUIDs, so tests share it). */
export function testDatabaseUrl(kind: StoreKind): string {
  if (kind === 'postgres') return postgresUrl;
  return `sqlite:${path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-')), 'tasks.db')}`;
}

export async function openTestDatabase(
  kind: StoreKind,
  url = testDatabaseUrl(kind),
): Promise<HarnessDatabase> {
  return openDatabase(url);
}

/** Where a harness process (`a2a-testing/process`) keeps its tasks. */
export interface ProcessStore {
  kind: StoreKind;
  /**
   * The flags of `a2a-harness serve` that put it there: none on SQLite, whose
   * file is in the `--data` folder, and `--database-url` on PostgreSQL.
   */
  flags: string[];
  /** On PostgreSQL, the database's URL, for the test's own connections; none on SQLite. */
  databaseUrl?: string;
  /** Drops the database of its own, when it has one; nothing otherwise. */
  drop(): Promise<void>;
}

/** A process store on PostgreSQL, whose URL is known. */
export type PostgresProcessStore = ProcessStore & { databaseUrl: string };

export interface ProcessStoreOptions {
  /**
   * On PostgreSQL, a database of its own, named from this prefix, instead of
   * the shared one. A process needs one when it recovers every task it finds,
   * or when its lease is test-sized: on the shared database another file's
   * instance would take a turn over as soon as a busy machine delayed a renewal.
   */
  ownDatabase?: string;
}

/** The store of `kind` for a harness process: the flags to start it with, and the clean-up. */
export async function processStore(
  kind: 'postgres',
  options?: ProcessStoreOptions,
): Promise<PostgresProcessStore>;
export async function processStore(
  kind: StoreKind,
  options?: ProcessStoreOptions,
): Promise<ProcessStore>;
export async function processStore(
  kind: StoreKind,
  options: ProcessStoreOptions = {},
): Promise<ProcessStore> {
  if (kind === 'sqlite') return { kind, flags: [], drop: async () => undefined };
  const database =
    options.ownDatabase === undefined
      ? { url: testDatabaseUrl(kind), drop: async () => undefined }
      : await freshPostgresDatabase(options.ownDatabase);
  return {
    kind,
    flags: ['--database-url', database.url],
    databaseUrl: database.url,
    drop: database.drop,
  };
}
