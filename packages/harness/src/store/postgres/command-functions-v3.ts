import { sql } from 'kysely';
import { LOCK_CLASS, type AnyKysely } from '../advisory-locks.js';
import { MESSAGES_TABLE } from '../messages-table.js';

/**
 * The command functions as migration 0003 installed them, on the SDK's
 * `tasks` table: kept so that the migrations build every database the same
 * way. Migration 0008 makes these names calls of the current functions
 * (`command-functions.ts`).
 */
const TASK_TABLE = 'tasks';
const INSERT_TASKS_FUNCTION = 'a2a_harness_insert_tasks_v2';
const APPEND_REPLY_FUNCTION = 'a2a_harness_append_reply_v3';
/** Earlier releases' names, kept as calls of the new one for instances still running them. */
const APPEND_REPLY_FUNCTION_V2 = 'a2a_harness_append_reply_v2';
const APPEND_REPLY_FUNCTION_V1 = 'a2a_harness_append_reply_v1';

/**
 * New tasks and their histories, as rows in JSON (`task-rows.ts`,
 * `messages-table.ts`). The tasks upsert every column, as the SDK's save does.
 */
const insertTasks = `
create or replace function ${INSERT_TASKS_FUNCTION}(p_tasks json, p_messages json)
returns void language sql as $fn$
  insert into ${MESSAGES_TABLE} (task_id, seq, message_id, message, reply_to)
    select task_id, seq, message_id, message, reply_to
    from json_populate_recordset(null::${MESSAGES_TABLE}, p_messages)
    on conflict (task_id, message_id) do nothing;
  insert into ${TASK_TABLE} (tenant, owner, id, context_id, status_last_updated, status_state,
                             status, artifacts, history, metadata, protocol_version)
    select tenant, owner, id, context_id, status_last_updated, status_state,
           status, artifacts, history, metadata, protocol_version
    from json_populate_recordset(null::${TASK_TABLE}, p_tasks)
    on conflict (tenant, owner, id) do update set
      context_id = excluded.context_id, status_last_updated = excluded.status_last_updated,
      status_state = excluded.status_state, status = excluded.status, artifacts = excluded.artifacts,
      history = excluded.history, metadata = excluded.metadata,
      protocol_version = excluded.protocol_version;
$fn$`;

/**
 * A command, its reply and its effects appended to a task, as the SQLite path
 * does it: under the task's advisory lock (the lock every writer of the task
 * takes first, in any process), read the head; append `p_entries` after the
 * history's end; make the status `p_message` at `p_timestamp` with the stored
 * state kept (SEMANTICS §4); store `p_tasks` (sub-tasks); set the metadata to
 * `p_new_metadata`; and, when `p_notify_payload` is given, notify it on
 * `p_notify_channel`, which PostgreSQL sends when this commits.
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
  select t.context_id, coalesce(t.status_state, 'TASK_STATE_UNSPECIFIED'), t.metadata
    into v_context_id, v_state, v_metadata
    from ${TASK_TABLE} t where t.tenant = p_tenant and t.owner = p_owner and t.id = p_id;
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
  select coalesce(max(m.seq) + 1, 0) into v_next from ${MESSAGES_TABLE} m where m.task_id = p_id;
  insert into ${MESSAGES_TABLE} (task_id, seq, message_id, message, reply_to)
    select p_id, v_next + e.ord::integer - 1, e.message_id, e.message, e.reply_to
    from rows from (json_to_recordset(p_entries) as (message_id text, message text, reply_to text))
      with ordinality as e(message_id, message, reply_to, ord)
    on conflict (task_id, message_id) do nothing;
  if p_change_metadata then
    v_metadata := p_new_metadata;
  end if;
  -- The state first, as TaskStatus.toJSON puts it, and left out when unspecified.
  update ${TASK_TABLE} t
    set status_last_updated = p_updated, status_state = v_state, metadata = v_metadata,
        status = case when v_state = 'TASK_STATE_UNSPECIFIED'
                      then json_build_object('message', p_message, 'timestamp', p_timestamp)
                      else json_build_object('state', v_state, 'message', p_message,
                                             'timestamp', p_timestamp) end::text
    where t.tenant = p_tenant and t.owner = p_owner and t.id = p_id;
  if p_notify_payload is not null then
    perform pg_notify(p_notify_channel, p_notify_payload);
  end if;
  return query select v_context_id, v_state, v_metadata, true;
end
$fn$`;

/** The previous version took the status whole; it now calls the new one. */
const appendReplyV2 = `
create or replace function ${APPEND_REPLY_FUNCTION_V2}(
  p_tenant text, p_owner text, p_id text, p_entries json,
  p_status json, p_updated bigint,
  p_change_metadata boolean, p_seen_metadata text, p_new_metadata text,
  p_tasks json, p_task_messages json)
returns table (head_context_id text, head_state text, head_metadata text, applied boolean)
language sql as $fn$
  select * from ${APPEND_REPLY_FUNCTION}(p_tenant, p_owner, p_id, p_entries,
    p_status -> 'message', p_status ->> 'timestamp', p_updated, p_change_metadata,
    p_seen_metadata, p_new_metadata, p_tasks, p_task_messages, null, null);
$fn$`;

/**
 * The first release's append read its rows by the table's columns, which the
 * reply link changed, and sent its status as JSON text without the opening
 * brace: the brace is put back here, and the call goes on to the next version.
 */
const appendReplyV1 = `
create or replace function ${APPEND_REPLY_FUNCTION_V1}(
  p_tenant text, p_owner text, p_id text, p_entries json,
  p_status_tail text, p_updated bigint,
  p_change_metadata boolean, p_seen_metadata text, p_new_metadata text,
  p_tasks json, p_task_messages json)
returns table (head_context_id text, head_state text, head_metadata text, applied boolean)
language sql as $fn$
  select * from ${APPEND_REPLY_FUNCTION_V2}(p_tenant, p_owner, p_id, p_entries, ('{' || p_status_tail)::json,
    p_updated, p_change_metadata, p_seen_metadata, p_new_metadata, p_tasks, p_task_messages);
$fn$`;

/** The previous release's insert, which left the reply link out: now a call of the new one. */
const insertTasksV1 = `
create or replace function a2a_harness_insert_tasks_v1(p_tasks json, p_messages json)
returns void language sql as $fn$
  select ${INSERT_TASKS_FUNCTION}(p_tasks, p_messages);
$fn$`;

/**
 * Installs the functions as migration 0003 left them (`migrations.ts`): the
 * current append, and the earlier names as calls of it.
 */
export async function installCommandFunctionsV3(db: AnyKysely): Promise<void> {
  for (const definition of [insertTasks, insertTasksV1, appendReply, appendReplyV2, appendReplyV1])
    await sql.raw(definition).execute(db);
}
