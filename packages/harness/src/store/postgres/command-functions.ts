import { sql } from 'kysely';
import { LOCK_CLASS, type AnyKysely } from '../advisory-locks.js';
import { MESSAGES_TABLE } from '../messages-table.js';
import { TASKS_TABLE } from '../task-rows.js';
import { LEASES_TABLE } from '../turn-rows.js';

/**
 * The server-side functions of the PostgreSQL command path, installed by the
 * harness's migrations (`migrations.ts`). Each call is one statement, so one
 * round trip and one transaction: PostgreSQL commits it (durably, with the
 * server's synchronous_commit) before it answers.
 *
 * The names carry a version: a later change of their signature or rows gets
 * new names, and the old names become calls of the new functions, so that a
 * command an instance of the previous version sends still lands in the
 * current tables.
 */
export const INSERT_TASKS_FUNCTION = 'a2a_harness_insert_tasks_v3';
export const APPEND_REPLY_FUNCTION = 'a2a_harness_append_reply_v4';

/**
 * `p_entries` (JSON rows: message id, message, reply link) appended after the
 * history's end of task `p_id`, in a function that declares `v_next integer`.
 */
export const APPEND_ENTRIES = `
  select coalesce(max(m.seq) + 1, 0) into v_next from ${MESSAGES_TABLE} m where m.task_id = p_id;
  insert into ${MESSAGES_TABLE} (task_id, seq, message_id, message, reply_to)
    select p_id, v_next + e.ord::integer - 1, e.message_id, e.message, e.reply_to
    from rows from (json_to_recordset(p_entries) as (message_id text, message text, reply_to text))
      with ordinality as e(message_id, message, reply_to, ord)
    on conflict (task_id, message_id) do nothing;`;

/**
 * New tasks and their histories, as rows in JSON (`task-rows.ts`,
 * `messages-table.ts`). A task the same owner already has is replaced.
 */
const insertTasks = `
create or replace function ${INSERT_TASKS_FUNCTION}(p_tasks json, p_messages json)
returns void language sql as $fn$
  insert into ${MESSAGES_TABLE} (task_id, seq, message_id, message, reply_to)
    select task_id, seq, message_id, message, reply_to
    from json_populate_recordset(null::${MESSAGES_TABLE}, p_messages)
    on conflict (task_id, message_id) do nothing;
  insert into ${TASKS_TABLE} as t (id, tenant, owner, context_id, state, updated_ms,
                                   status, artifacts, metadata)
    select id, tenant, owner, context_id, state, updated_ms, status, artifacts, metadata
    from json_populate_recordset(null::${TASKS_TABLE}, p_tasks)
    on conflict (id) do update set
      context_id = excluded.context_id, state = excluded.state,
      updated_ms = excluded.updated_ms, status = excluded.status,
      artifacts = excluded.artifacts, metadata = excluded.metadata
    where t.tenant = excluded.tenant and t.owner = excluded.owner;
$fn$`;

/**
 * A command, its reply and its effects appended to a task, as the SQLite path
 * does it: under the task's advisory lock (the lock every writer of the task
 * takes first, in any process), read the head; append `p_entries` after the
 * history's end; make the status `p_message` at `p_timestamp` with the stored
 * state kept (SEMANTICS §4); store `p_tasks` (sub-tasks); set the metadata to
 * `p_new_metadata`; and, when `p_notify_payload` is given and another
 * instance holds a lease, notify it on `p_notify_channel`, which PostgreSQL
 * sends when this commits.
 *
 * The status is built by json_build_object from the stored state column and
 * the driver's JSON: the stored status is never parsed, so text PostgreSQL's
 * JSON functions refuse to unescape (a lone surrogate, valid in JSON text)
 * cannot break later commands on the task.
 *
 * The metadata change is a read-modify-write made in JavaScript, so it is
 * applied only if the stored metadata is still `p_seen_metadata`, the value it
 * was computed from. Otherwise nothing is written, `applied` is false, and the
 * stored metadata comes back for the caller to compute again.
 *
 * No row when the caller has no such task.
 */
const appendReply = `
create or replace function ${APPEND_REPLY_FUNCTION}(
  p_tenant text, p_owner text, p_id text, p_entries json,
  p_message json, p_timestamp text, p_updated bigint,
  p_change_metadata boolean, p_seen_metadata text, p_new_metadata text,
  p_tasks json, p_task_messages json,
  p_notify_channel text, p_notify_payload text)
returns table (head_context_id text, head_state text, head_metadata text, applied boolean)
language plpgsql as $fn$
declare
  v_context_id text;
  v_state text;
  v_metadata text;
  v_next integer;
begin
  perform pg_advisory_xact_lock(${LOCK_CLASS.task}, hashtext(p_id));
  -- Read after the lock: in READ COMMITTED each statement here sees what the last holder committed.
  select t.context_id, coalesce(t.state, 'TASK_STATE_UNSPECIFIED'), t.metadata
    into v_context_id, v_state, v_metadata
    from ${TASKS_TABLE} t where t.id = p_id and t.tenant = p_tenant and t.owner = p_owner;
  if not found then
    return;
  end if;
  if p_change_metadata and v_metadata is distinct from p_seen_metadata then
    return query select v_context_id, null::text, v_metadata, false;
    return;
  end if;
  if p_tasks is not null then
    perform ${INSERT_TASKS_FUNCTION}(p_tasks, p_task_messages);
  end if;
${APPEND_ENTRIES}
  if p_change_metadata then
    v_metadata := p_new_metadata;
  end if;
  -- The state first, as TaskStatus.toJSON puts it, and left out when unspecified.
  update ${TASKS_TABLE} t
    set updated_ms = p_updated, state = v_state, metadata = v_metadata,
        status = case when v_state = 'TASK_STATE_UNSPECIFIED'
                      then json_build_object('message', p_message, 'timestamp', p_timestamp)
                      else json_build_object('state', v_state, 'message', p_message,
                                             'timestamp', p_timestamp) end::text
    where t.id = p_id and t.tenant = p_tenant and t.owner = p_owner;
  -- Only while another instance holds a lease: the payload starts with the sender's id.
  if p_notify_payload is not null and exists (
      select 1 from ${LEASES_TABLE} l where l.instance <> split_part(p_notify_payload, ' ', 1)) then
    perform pg_notify(p_notify_channel, p_notify_payload);
  end if;
  return query select v_context_id, v_state, v_metadata, true;
end
$fn$`;

/** The previous append, same arguments: now a call of the current one. */
const appendReplyV3 = `
create or replace function a2a_harness_append_reply_v3(
  p_tenant text, p_owner text, p_id text, p_entries json,
  p_message json, p_timestamp text, p_updated bigint,
  p_change_metadata boolean, p_seen_metadata text, p_new_metadata text,
  p_tasks json, p_task_messages json,
  p_notify_channel text, p_notify_payload text)
returns table (head_context_id text, head_state text, head_metadata text, applied boolean)
language sql as $fn$
  select * from ${APPEND_REPLY_FUNCTION}(p_tenant, p_owner, p_id, p_entries, p_message,
    p_timestamp, p_updated, p_change_metadata, p_seen_metadata, p_new_metadata,
    a2a_harness_task_rows_of_v2(p_tasks), p_task_messages, p_notify_channel, p_notify_payload);
$fn$`;

/** Rows in the SDK's `tasks` layout, which the previous functions took, as this table's rows. */
const taskRowsOfV2 = `
create or replace function a2a_harness_task_rows_of_v2(p_tasks json)
returns json language sql as $fn$
  select json_agg(json_build_object('id', t.id, 'tenant', t.tenant, 'owner', t.owner,
    'context_id', t.context_id, 'state', t.status_state, 'updated_ms', t.status_last_updated,
    'status', t.status, 'artifacts', t.artifacts, 'metadata', t.metadata))
  from json_populate_recordset(null::tasks, p_tasks) t;
$fn$`;

/** The previous insert, which took rows in the SDK's layout: now a call of the current one. */
const insertTasksV2 = `
create or replace function a2a_harness_insert_tasks_v2(p_tasks json, p_messages json)
returns void language sql as $fn$
  select ${INSERT_TASKS_FUNCTION}(a2a_harness_task_rows_of_v2(p_tasks), p_messages);
$fn$`;

/**
 * Installs the functions as migration 0008 leaves them (`migrations.ts`): the
 * current ones on the harness's tasks table and, for instances of earlier
 * releases (`earlierReleases`), the previous names as calls of them (earlier
 * names already call those). Those take rows of the SDK's `tasks` table, so
 * they need it; a new database has neither it nor such instances.
 */
export async function installCommandFunctionsV4(
  db: AnyKysely,
  earlierReleases: boolean,
): Promise<void> {
  const previous = earlierReleases ? [taskRowsOfV2, appendReplyV3, insertTasksV2] : [];
  for (const definition of [insertTasks, appendReply, ...previous])
    await sql.raw(definition).execute(db);
}
