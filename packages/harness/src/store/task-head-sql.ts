import { Artifact, type Task } from '@a2a-js/sdk';
import { TASK_TABLE } from '@a2a-js/sdk/server/database';
import type { TaskHead } from 'a2a-commands/server';
import { sql } from 'kysely';
import type { AnyKysely } from './advisory-locks.js';
import type { Owner } from './owner.js';
import {
  encode,
  headOfRow,
  statusColumnsOf,
  TASK_COLUMNS,
  taskRowOf,
  type HeadRow,
} from './task-rows.js';

/**
 * A task's head in the `tasks` table, through kysely, on either database: the
 * rows the repositories' own statements read and write (`task-rows.ts`), in
 * the caller's transaction.
 */

const table = sql.table(TASK_TABLE);
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
  const [lastUpdated, state, status] = statusColumnsOf(head.status);
  await sql`
    update ${table} set status_last_updated = ${lastUpdated}, status_state = ${state},
      status = ${status}, metadata = ${encode(head.metadata)}
    where ${scoped(owner, head.id)}`.execute(db);
}

/** A whole task's row, inserted or replaced, as the SDK's save writes it; its history is not here. */
export async function upsertTask(db: AnyKysely, owner: Owner, task: Task): Promise<void> {
  const row = taskRowOf(task, owner);
  await sql`
    insert into ${table} (${sql.join(TASK_COLUMNS.map((column) => sql.ref(column)))})
    values (${sql.join(TASK_COLUMNS.map((column) => row[column]))})
    on conflict (tenant, owner, id) do update set ${sql.join(
      TASK_COLUMNS.slice(3).map((column) => sql`${sql.ref(column)} = excluded.${sql.ref(column)}`),
    )}`.execute(db);
}

export async function writeArtifacts(
  db: AnyKysely,
  owner: Owner,
  id: string,
  artifacts: Artifact[],
): Promise<void> {
  const json = artifacts.length === 0 ? null : JSON.stringify(artifacts.map(Artifact.toJSON));
  await sql`update ${table} set artifacts = ${json} where ${scoped(owner, id)}`.execute(db);
}
