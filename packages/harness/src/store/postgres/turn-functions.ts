import { Artifact } from '@a2a-js/sdk';
import { sql } from 'kysely';
import type pg from 'pg';
import { LOCK_CLASS, type AnyKysely } from '../advisory-locks.js';
import type { Owner } from '../owner.js';
import { TASKS_TABLE } from '../task-rows.js';

/**
 * The server-side functions of the turn path, installed by migration 0009
 * (`migrations.ts`): each call is one statement, so one round trip and one
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
