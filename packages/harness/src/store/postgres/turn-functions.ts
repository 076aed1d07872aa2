import { Artifact } from '@a2a-js/sdk';
import { sql } from 'kysely';
import type pg from 'pg';
import { LOCK_CLASS, type AnyKysely } from '../advisory-locks.js';
import type { Owner } from '../owner.js';
import { TASKS_TABLE } from '../task-rows.js';
import { TURNS_TABLE, type TurnRow } from '../turn-rows.js';

/**
 * The server-side functions of the turn path, installed by migrations 0009
 * and 0010 (`migrations.ts`): each call is one statement, so one round trip and one
 * transaction, under the task's advisory lock as every writer takes it.
 */
export const KEEP_ANSWER_FUNCTION = 'a2a_harness_keep_answer_v1';

/** A turn's answer as the task's one artifact (SEMANTICS §4), the artifacts' A2A JSON from the driver. */
const keepAnswerDefinition = `
create or replace function ${KEEP_ANSWER_FUNCTION}(
  p_tenant text, p_owner text, p_id text, p_artifacts text)
returns void language plpgsql as $fn$
begin
  perform pg_advisory_xact_lock(${LOCK_CLASS.task}, hashtext(p_id));
  update ${TASKS_TABLE} set artifacts = p_artifacts
    where tenant = p_tenant and owner = p_owner and id = p_id;
end
$fn$`;

export async function installTurnFunctionsV1(db: AnyKysely): Promise<void> {
  await sql.raw(keepAnswerDefinition).execute(db);
}

export const CLAIM_TURN_FUNCTION = 'a2a_harness_claim_turn_v1';

/**
 * The task's oldest turn, now `p_instance`'s, if it waits and none of the
 * task's turns runs: the lock and the update in one call instead of a
 * transaction of four statements. The turns table is made after the
 * migrations (`cluster/tables.ts`), so the result is spelled out, not its row type.
 */
const claimTurnDefinition = `
create or replace function ${CLAIM_TURN_FUNCTION}(p_task_id text, p_instance text)
returns table(id bigint, task_id text, turn_id text, owner text, tenant text,
              instance text, created_at timestamptz)
language plpgsql as $fn$
#variable_conflict use_column
begin
  perform pg_advisory_xact_lock(${LOCK_CLASS.task}, hashtext(p_task_id));
  return query
    update ${TURNS_TABLE} set instance = p_instance
    where id = (select min(id) from ${TURNS_TABLE} where task_id = p_task_id)
      and instance is null
      and not exists (select 1 from ${TURNS_TABLE}
                      where task_id = p_task_id and instance is not null)
    returning id, task_id::text, turn_id, owner, tenant, instance, created_at;
end
$fn$`;

export async function installTurnFunctionsV2(db: AnyKysely): Promise<void> {
  await sql.raw(claimTurnDefinition).execute(db);
}

/** `TurnRows.claim` on PostgreSQL: one call of the function. */
export async function claimTurn(
  db: AnyKysely,
  taskId: string,
  instance: string,
): Promise<TurnRow | undefined> {
  const { rows } = await sql<TurnRow>`
    select * from ${sql.raw(CLAIM_TURN_FUNCTION)}(${taskId}, ${instance})`.execute(db);
  return rows[0];
}

/** `keepAnswerArtifact` on PostgreSQL: one call of the function. */
export async function keepAnswer(
  pool: pg.Pool,
  owner: Owner,
  taskId: string,
  answer: Artifact,
): Promise<void> {
  await pool.query({
    name: KEEP_ANSWER_FUNCTION,
    text: `select ${KEEP_ANSWER_FUNCTION}($1, $2, $3, $4)`,
    values: [owner.tenant, owner.owner, taskId, JSON.stringify([Artifact.toJSON(answer)])],
  });
}
