import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import { LOCK_CLASS, lockForTransaction, type AnyKysely } from './advisory-locks.js';
import type { MessagesTable } from './messages-table.js';
import { migrateHarnessTables, needsSdkMigrations } from './migrations.js';
import { runSdkMigrations, type SdkMigrationRunner } from './sdk-tasks-table.js';
import { WalCheckpoints, type WalTiming } from './wal-checkpoints.js';
import { withStatementCache } from './statement-cache.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface HarnessDatabase {
  db: Kysely<MessagesTable>;
  kind: DatabaseKind;
  /** The URL the SDK's `a2a-db` tool understands: `sqlite:<file>` or `postgres://...`. */
  url: string;
  close(): Promise<void>;
}

/** `--database-url` when given, else a SQLite file under the data directory. */
export function databaseUrl(dataDir: string, databaseUrlOption?: string): string {
  if (databaseUrlOption) return databaseUrlOption;
  return `sqlite:${path.join(dataDir, 'tasks.db')}`;
}

export function kindOf(url: string): DatabaseKind {
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  throw new Error(
    `unsupported database URL "${redactUrl(url)}": use postgres://... or sqlite:<file>`,
  );
}

/** A URL safe to log: the password is replaced. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+):[^@]*@/, '$1:***@');
}

/** The pool size of a PostgreSQL database; each instance also has one listening connection. */
export const POSTGRES_POOL_SIZE = 10;

/**
 * Opens the database and brings its schema up to date: no separate migration step.
 * `tables` are created too, after the harness's own.
 */
export async function openDatabase(
  url: string,
  tables: ((db: AnyKysely) => Promise<void>)[] = [],
  /** On a SQLite file: how often the WAL is copied back and synced, and how long it may grow (for tests). */
  wal: WalTiming = {},
  /** On PostgreSQL: told of each connection the server ended or lost; the pool replaces it. */
  onConnectionLost: (error: Error) => void = () => undefined,
  /** Runs the SDK's `a2a-db upgrade` (for tests, which count its runs). */
  runSdkTool: SdkMigrationRunner = runSdkMigrations,
): Promise<HarnessDatabase> {
  const kind = kindOf(url);
  if (kind === 'sqlite') createSqliteFile(url.slice('sqlite:'.length));
  const db = kind === 'sqlite' ? openSqlite(url) : await openPostgres(url, onConnectionLost);
  try {
    // The SDK's tool is a process of its own, seconds on a busy machine: only for a database
    // whose SDK rows the harness's migrations have yet to copy.
    const sdkRowsToCopy = await needsSdkMigrations(db).catch(failed('reading', url));
    if (sdkRowsToCopy) await runSdkTool(url).catch(failed('migrating', url));
    await migrateHarnessTables(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const createTables = async (schema: AnyKysely) => {
    for (const create of tables) await create(schema);
  };
  if (kind === 'postgres') {
    // Instances started together would race on CREATE TABLE IF NOT EXISTS (it is not atomic).
    await db.transaction().execute(async (trx) => {
      await lockForTransaction(trx, LOCK_CLASS.schema, 'tables');
      await createTables(trx);
    });
  } else {
    await createTables(db);
  }
  const sqliteFile = kind === 'sqlite' ? url.slice('sqlite:'.length) : ':memory:';
  const checkpoints =
    sqliteFile === ':memory:'
      ? undefined
      : await WalCheckpoints.start(sqliteConnectionOf(db)!, sqliteFile, wal);
  if (checkpoints) walCheckpoints.set(db, checkpoints);
  return {
    db,
    kind,
    url,
    close: async () => {
      await checkpoints?.stop();
      await db.destroy();
    },
  };
}

/** The checkpoints of a SQLite file opened here. */
const walCheckpoints = new WeakMap<AnyKysely, WalCheckpoints>();

/** The WAL checkpoints of `db`, when it is a SQLite file opened here; undefined otherwise. */
export function walCheckpointsOf(db: AnyKysely): WalCheckpoints | undefined {
  return walCheckpoints.get(db);
}

/** The one better-sqlite3 connection behind a SQLite Kysely, for the command path's raw statements. */
const sqliteConnections = new WeakMap<AnyKysely, SqliteDatabase.Database>();

/** The raw connection under `db`, when it is SQLite opened here; undefined otherwise. */
export function sqliteConnectionOf(db: AnyKysely): SqliteDatabase.Database | undefined {
  return sqliteConnections.get(db);
}

function openSqlite(url: string): Kysely<MessagesTable> {
  const database = new SqliteDatabase(url.slice('sqlite:'.length));
  // WAL keeps readers off the writer's back; NORMAL is durable across process crashes.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  // A group commit's savepoints journal the pages they change: in memory, not in a temporary file.
  database.pragma('temp_store = MEMORY');
  const db = new Kysely<MessagesTable>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
  });
  sqliteConnections.set(db, database);
  return db;
}

/** The pool behind a PostgreSQL Kysely, for the command path's raw queries. */
const postgresPools = new WeakMap<AnyKysely, pg.Pool>();

/** The pool under `db`, when it is PostgreSQL opened here; undefined otherwise. */
export function postgresPoolOf(db: AnyKysely): pg.Pool | undefined {
  return postgresPools.get(db);
}

/** How long a request waits for a pooled connection before it fails: an outage answers promptly. */
export const POSTGRES_CONNECT_TIMEOUT_MS = 5000;

async function openPostgres(
  url: string,
  onConnectionLost: (error: Error) => void,
): Promise<Kysely<MessagesTable>> {
  // Loaded only for PostgreSQL: a SQLite start need not pay for the driver.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
  });
  // An 'error' with no listener ends the process. The pool drops an idle client
  // that failed; a checked-out one fails its query and is dropped on release.
  pool.on('error', onConnectionLost);
  pool.on('connect', (client) => client.on('error', onConnectionLost));
  const db = new Kysely<MessagesTable>({ dialect: new PostgresDialect({ pool }) });
  postgresPools.set(db, pool);
  return db;
}

/** The page size of a new SQLite file: a command's rows (a few KB each) pack twice as densely. */
export const SQLITE_PAGE_SIZE = 8192;

/**
 * Creates a missing SQLite file with the harness's page size, in WAL mode. An
 * existing file keeps its own.
 */
function createSqliteFile(file: string): void {
  if (file === ':memory:' || existsSync(file)) return;
  mkdirSync(path.dirname(file), { recursive: true });
  const database = new SqliteDatabase(file);
  try {
    database.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
    database.pragma('journal_mode = WAL');
  } finally {
    database.close();
  }
}

/** An error naming the database without its password, and what the SDK's tool said, if it ran. */
function failed(doing: 'reading' | 'migrating', url: string): (error: unknown) => never {
  return (error) => {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`${doing} the database ${redactUrl(url)} failed: ${stderr || String(error)}`);
  };
}
