import { sql, type Kysely } from 'kysely';
import { SDK_TASKS_TABLE } from './sdk-tasks-table.js';
import { RUNNING_STATES, TASKS_TABLE, type TasksTable } from './task-rows.js';

/**
 * Makes the harness's tasks table (`task-rows.ts`) with the indexes its reads
 * need, and carries over every task the SDK's table holds, when there is one
 * (`fromSdkTable`). Task ids are unique across owners (the messages table
 * already keys history by id alone), so the id alone is the key; `tenant` and
 * `owner` scope every read.
 *
 * Each index costs every new task a page written, so there are only the ones
 * the reads need (test/task-indexes.test.ts explains each read): a new task
 * waiting for input writes its row, its key and two indexes.
 */
export async function createTasksTable(
  db: Kysely<TasksTable>,
  fromSdkTable: boolean,
): Promise<void> {
  await db.schema
    .createTable(TASKS_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('tenant', 'text', (column) => column.notNull())
    .addColumn('owner', 'text', (column) => column.notNull())
    .addColumn('context_id', 'text', (column) => column.notNull())
    .addColumn('state', 'text')
    .addColumn('updated_ms', 'bigint', (column) => column.notNull())
    .addColumn('status', 'text')
    .addColumn('artifacts', 'text')
    .addColumn('metadata', 'text')
    .execute();
  // ListTasks and the history quota: an owner's tasks, newest first.
  await db.schema
    .createIndex(`${TASKS_TABLE}_owner`)
    .on(TASKS_TABLE)
    .columns(['tenant', 'owner', 'updated_ms', 'id'])
    .execute();
  // SEMANTICS §10's latest task of a context, and ListTasks by context.
  await db.schema
    .createIndex(`${TASKS_TABLE}_context`)
    .on(TASKS_TABLE)
    .columns(['context_id', 'updated_ms'])
    .execute();
  // The sweeps look for tasks left submitted or working; the index 0005 made on the SDK's
  // table moves here, holding only those tasks: most tasks wait for input and never enter it.
  await db.schema.dropIndex(`${TASKS_TABLE}_state`).ifExists().execute();
  await db.schema
    .createIndex(`${TASKS_TABLE}_state`)
    .on(TASKS_TABLE)
    .columns(['state', 'updated_ms'])
    .where(sql<boolean>`state in ${RUNNING_STATES}`)
    .execute();
  if (!fromSdkTable) return;
  await sql`
    insert into ${sql.table(TASKS_TABLE)}
      (id, tenant, owner, context_id, state, updated_ms, status, artifacts, metadata)
    select id, tenant, owner, context_id, status_state, status_last_updated, status, artifacts,
      metadata
    from ${sql.table(SDK_TASKS_TABLE)}`.execute(db);
}
