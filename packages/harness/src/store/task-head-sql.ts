import type { Task } from '@a2a-js/sdk';
import type { TaskHead } from 'a2a-commands/server';
import { sql } from 'kysely';
import type { AnyKysely } from './advisory-locks.js';
import type { Owner } from './owner.js';
import {
  encode,
  headOfRow,
  statusColumnsOf,
  REPLACED_COLUMNS,
  TASK_COLUMNS,
  TASKS_TABLE,
  taskRowOf,
  type HeadRow,
} from './task-rows.js';

/**
 * A task's head in the harness's tasks table, through kysely, on either database: the
 * rows the repositories' own statements read and write (`task-rows.ts`), in
 * the caller's transaction.
 */

const table = sql.table(TASKS_TABLE);
const scoped = ({ tenant, owner }: Owner, id: string) =>
  sql`tenant = ${tenant} and owner = ${owner} and id = ${id}`;

export async function readHead(
  db: AnyKysely,
  owner: Owner,
  id: string,
): Promise<TaskHead | undefined> {
  const { rows } = await sql<HeadRow>`
    select context_id, status, metadata from ${table} where ${scoped(owner, id)}`.execute(db);
  return rows[0] && headOfRow(id, rows[0]);
}

/** The head's status and metadata columns rewritten; artifacts stay. */
export async function writeHead(db: AnyKysely, owner: Owner, head: TaskHead): Promise<void> {
  const [updatedMs, state, status] = statusColumnsOf(head.status);
  await sql`
    update ${table} set updated_ms = ${updatedMs}, state = ${state},
      status = ${status}, metadata = ${encode(head.metadata)}
    where ${scoped(owner, head.id)}`.execute(db);
}

/**
 * A whole task's row, inserted or replaced, for the SDK's save; its history is
 * not here. Another owner's task of the same id is left as it is.
 */
export async function upsertTask(db: AnyKysely, owner: Owner, task: Task): Promise<void> {
  const row = taskRowOf(task, owner);
  await sql`
    insert into ${table} (${sql.join(TASK_COLUMNS.map((column) => sql.ref(column)))})
    values (${sql.join(TASK_COLUMNS.map((column) => row[column]))})
    on conflict (id) do update set ${sql.join(
      REPLACED_COLUMNS.map((column) => sql`${sql.ref(column)} = excluded.${sql.ref(column)}`),
    )}
    where ${table}.tenant = excluded.tenant and ${table}.owner = excluded.owner`.execute(db);
}
