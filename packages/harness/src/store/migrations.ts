import { Migrator, PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import type { AnyKysely } from './advisory-locks.js';
import { createMessagesTable, MESSAGES_TABLE, type MessagesTable } from './messages-table.js';
import { installCommandFunctionsV3 } from './postgres/command-functions-v3.js';
import { installCommandFunctionsV4 } from './postgres/command-functions.js';
import { installChangeFunctions } from './postgres/change-functions.js';
import { installTurnFunctionsV1, installTurnFunctionsV2 } from './postgres/turn-functions.js';
import { createPushConfigsTable, type PushConfigsTable } from './push-configs.js';
import { existingTables, hasSdkTasksTable, SDK_TASKS_TABLE } from './sdk-tasks-table.js';
import type { TasksTable } from './task-rows.js';
import { createTasksTable } from './tasks-table.js';

/** Where kysely's Migrator records the migrations that ran. */
export const HARNESS_MIGRATIONS_TABLE = 'a2a_harness_migrations';
/** The migration that copies the SDK's task table into the harness's own. */
export const TASKS_TABLE_MIGRATION = '0008-tasks-table';

/**
 * The harness's own tables, in versions: each migration runs once per
 * database, in name order, recorded in `HARNESS_MIGRATIONS_TABLE` (kysely's
 * Migrator, which also keeps two instances starting together from running one
 * twice). A database made before this list existed starts at the first, which
 * finds its table already there.
 *
 * A database made since the harness has its own tasks table never has the
 * SDK's: the steps written for that table (0003, 0005's index, 0008's copy and
 * functions for instances of earlier releases) apply only where it exists, and
 * no instance of an earlier release can be using a database without it.
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001-messages': {
    up: (db) => createMessagesTable(db as Kysely<MessagesTable>),
  },
  '0002-reply-links': {
    async up(db) {
      await db.schema.alterTable(MESSAGES_TABLE).addColumn('reply_to', 'text').execute();
      await db.schema
        .createIndex(`${MESSAGES_TABLE}_reply`)
        .on(MESSAGES_TABLE)
        .columns(['task_id', 'reply_to'])
        .where(sql.ref('reply_to'), 'is not', null)
        .execute();
      await linkStoredReplies(db as Kysely<MessagesTable>);
    },
  },
  // PostgreSQL's command functions: the append builds the status with json_build_object and may notify.
  '0003-append-reply-v3': {
    async up(db) {
      if (isPostgres(db) && (await hasSdkTasksTable(db))) await installCommandFunctionsV3(db);
    },
  },
  '0005-instance-leases': {
    async up(db) {
      // Each instance's lease, for instances sharing a PostgreSQL database
      // (docs/scaling.md); on SQLite it stays empty.
      await db.schema
        .createTable('a2a_harness_instances')
        .ifNotExists()
        .addColumn('instance', 'text', (column) => column.primaryKey())
        .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
        .execute();
      // The sweeps look for tasks left submitted or working: without it, a scan of every task.
      if (!(await hasSdkTasksTable(db))) return;
      await db.schema
        .createIndex('a2a_harness_tasks_state')
        .ifNotExists()
        .on(SDK_TASKS_TABLE)
        .columns(['status_state', 'status_last_updated'])
        .execute();
    },
  },
  '0006-push-configs': {
    up: (db) => createPushConfigsTable(db as Kysely<PushConfigsTable>),
  },
  // An instance restarted under its name ends its last run's turns by it (docs/scaling.md).
  '0007-instance-names': {
    up: (db) => db.schema.alterTable('a2a_harness_instances').addColumn('name', 'text').execute(),
  },
  // The harness's own tasks table replaces the SDK's, which stays as it was and is no longer written.
  [TASKS_TABLE_MIGRATION]: {
    async up(db) {
      const earlierRelease = await hasSdkTasksTable(db);
      await createTasksTable(db as Kysely<TasksTable>, earlierRelease);
      if (isPostgres(db)) await installCommandFunctionsV4(db, earlierRelease);
    },
  },
  // PostgreSQL's turn functions: a turn's answer in one call.
  '0009-turn-functions': {
    async up(db) {
      if (isPostgres(db)) await installTurnFunctionsV1(db);
    },
  },
  // A turn's claim in one call.
  '0010-turn-functions-v2': {
    async up(db) {
      if (isPostgres(db)) await installTurnFunctionsV2(db);
    },
  },
  // Every task change in one call: a turn's message, start and endings, a cancel, a fork's copy;
  // and a command's reply notified only while another instance can hear it.
  '0011-change-functions': {
    async up(db) {
      if (!isPostgres(db)) return;
      await installChangeFunctions(db);
      await installCommandFunctionsV4(db, false);
    },
  },
  // A retry finds its reply by the link, read from its command onwards (the reply is stored after
  // it), so the link needs no index of its own: one page fewer written by every command.
  '0012-reply-links-unindexed': {
    up: (db) => db.schema.dropIndex(`${MESSAGES_TABLE}_reply`).ifExists().execute(),
  },
};

const isPostgres = (db: AnyKysely) => db.getExecutor().adapter instanceof PostgresAdapter;

/** Brings the harness's tables up to the latest version. */
export async function migrateHarnessTables(db: AnyKysely): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
    migrationTableName: HARNESS_MIGRATIONS_TABLE,
    migrationLockTableName: `${HARNESS_MIGRATIONS_TABLE}_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(
      `migrating the harness's tables failed${failed ? ` at ${failed}` : ''}: ${String(error)}`,
    );
  }
}

/**
 * Whether the SDK's migrations must run before the harness's: only when its
 * task table exists and migration 0008 has not yet copied it, since the copy
 * reads the columns the SDK's latest migrations give it. A new database, and
 * one already past 0008, never need them.
 */
export async function needsSdkMigrations(db: AnyKysely): Promise<boolean> {
  const tables = await existingTables(db, [SDK_TASKS_TABLE, HARNESS_MIGRATIONS_TABLE]);
  if (!tables.has(SDK_TASKS_TABLE)) return false;
  if (!tables.has(HARNESS_MIGRATIONS_TABLE)) return true;
  const { rows } = await sql`
    select 1 from ${sql.table(HARNESS_MIGRATIONS_TABLE)}
    where name = ${TASKS_TABLE_MIGRATION}`.execute(db);
  return rows.length === 0;
}

/** Rows read at a time while linking stored replies. */
const LINK_BATCH = 1000;

interface TaggedRow {
  task_id: string;
  seq: number;
  message_id: string;
  message: string;
}

/**
 * Links the replies stored before replies named their command. Those were
 * written with their command in one write, side by side: a user message
 * tagged `command` at one place, its tagged agent reply at the next.
 */
async function linkStoredReplies(db: Kysely<MessagesTable>): Promise<void> {
  let previous: (TaggedRow & { command: boolean; reply: boolean }) | undefined;
  for (;;) {
    const after = previous
      ? sql`and (task_id, seq) > (${previous.task_id}, ${previous.seq})`
      : sql``;
    // Only rows that mention a command are parsed: the others cannot be either side of a link.
    const { rows } = await sql<TaggedRow>`
      select task_id, seq, message_id, message from ${sql.table(MESSAGES_TABLE)}
      where message like '%"command"%' ${after}
      order by task_id, seq limit ${LINK_BATCH}`.execute(db);
    for (const row of rows) {
      const parsed = JSON.parse(row.message) as { role?: string; metadata?: { command?: unknown } };
      const tagged = typeof parsed.metadata?.command === 'string';
      const current = {
        ...row,
        seq: Number(row.seq),
        command: tagged && parsed.role === 'ROLE_USER',
        reply: tagged && parsed.role === 'ROLE_AGENT',
      };
      if (
        current.reply &&
        previous?.command &&
        previous.task_id === current.task_id &&
        previous.seq + 1 === current.seq
      ) {
        await db
          .updateTable(MESSAGES_TABLE)
          .set({ reply_to: previous.message_id })
          .where('task_id', '=', current.task_id)
          .where('seq', '=', current.seq)
          .execute();
      }
      previous = current;
    }
    if (rows.length < LINK_BATCH) return;
  }
}
