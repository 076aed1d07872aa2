import { sql } from 'kysely';
import { LOCK_CLASS, type AnyKysely } from '../advisory-locks.js';
import { MESSAGES_TABLE } from '../messages-table.js';
import { TASKS_TABLE } from '../task-rows.js';
import { TURNS_TABLE } from '../turn-rows.js';
import { APPEND_ENTRIES, INSERT_TASKS_FUNCTION } from './command-functions.js';

/**
 * The functions every task change on PostgreSQL is one call of, installed by
 * migration 0011 (`migrations.ts`): a turn's message, its start, each of its
 * endings, a cancel, a fork's copy. Each takes the task's advisory lock, as
 * every writer of the task does, so a call is one round trip and one
 * transaction.
 *
 * A change is computed in JavaScript from the head it read (`task-changes.ts`)
 * and written only if the stored status and metadata are still what it read;
 * if not, nothing is written and the stored head comes back for the caller to
 * compute the change again. The caller's JSON is the driver's: nothing here
 * builds JSON from strings.
 */
export const CHANGE_TASK_FUNCTION = 'a2a_harness_change_task_v1';
export const CREATE_TASKS_FUNCTION = 'a2a_harness_create_tasks_v1';
export const SAVE_TASK_FUNCTION = 'a2a_harness_save_task_v1';

/**
 * The owner's history quota, in the transaction that copies history into new
 * tasks, under the owner's lock so that concurrent forks cannot all pass.
 * Sets `v_stored` to what the owner holds; the caller compares.
 */
const QUOTA_CHECK = `
  if p_quota is not null then
    perform pg_advisory_xact_lock(${LOCK_CLASS.owner}, hashtext(p_tenant || '/' || p_owner));
    select coalesce(sum(length(m.message)), 0) into v_stored
      from ${MESSAGES_TABLE} m join ${TASKS_TABLE} t on t.id = m.task_id
      where t.tenant = p_tenant and t.owner = p_owner;
    if v_stored + p_adding > p_quota then
      v_outcome := 'quota';
    end if;
  end if;`;

/** A turn queued on task p_id, unless p_limit turns are there already: one statement, under the task's lock. */
const QUEUE_TURN = `
  insert into ${TURNS_TABLE} (task_id, turn_id, owner, tenant, instance)
    select p_id, p_turn_id, p_owner, p_tenant, null
    where (select count(*) from ${TURNS_TABLE} where task_id = p_id) <= p_limit;
  if not found then
    v_outcome := 'full';
  end if;`;

/**
 * `outcome` says what happened: `applied`; `stale` (the stored head moved on:
 * it comes back); `taken` (`detail`: a message id the task holds already);
 * `quota` (`detail`: the owner's stored history); `full` (the turn queue);
 * `fenced` (the turn row the change depends on is gone). With `remove_all`,
 * `detail` lists the removed turns. No row when the caller has no such task.
 * Every refusal is decided before anything is written.
 */
const changeTask = `
create or replace function ${CHANGE_TASK_FUNCTION}(
  p_tenant text, p_owner text, p_id text,
  p_seen_status text, p_seen_metadata text,
  p_entries json, p_append_once boolean,
  p_write_head boolean, p_updated bigint, p_state text, p_status text, p_metadata text,
  p_tasks json, p_task_messages json, p_quota bigint, p_adding bigint,
  p_turn text, p_turn_id text, p_row bigint, p_instance text, p_limit integer)
returns table (outcome text, head_context_id text, head_status text, head_metadata text,
               detail text)
language plpgsql as $fn$
#variable_conflict use_column
declare
  v_context_id text;
  v_status text;
  v_metadata text;
  v_detail text;
  v_stored bigint;
  v_next integer;
  v_outcome text := 'applied';
begin
  perform pg_advisory_xact_lock(${LOCK_CLASS.task}, hashtext(p_id));
  select t.context_id, t.status, t.metadata into v_context_id, v_status, v_metadata
    from ${TASKS_TABLE} t where t.id = p_id and t.tenant = p_tenant and t.owner = p_owner;
  if not found then
    return;
  end if;
  if v_status is distinct from p_seen_status or v_metadata is distinct from p_seen_metadata then
    return query select 'stale'::text, v_context_id, v_status, v_metadata, null::text;
    return;
  end if;
  if p_append_once then
    select m.message_id into v_detail
      from json_to_recordset(p_entries) as e(message_id text)
      join ${MESSAGES_TABLE} m on m.task_id = p_id and m.message_id = e.message_id
      limit 1;
    if v_detail is not null then
      return query select 'taken'::text, v_context_id, v_status, v_metadata, v_detail;
      return;
    end if;
  end if;
  ${QUOTA_CHECK}
  if v_outcome <> 'applied' then
    return query select v_outcome, v_context_id, v_status, v_metadata, v_stored::text;
    return;
  end if;
  if p_turn = 'queue' then
    ${QUEUE_TURN}
  elsif p_turn = 'fence' then
    perform 1 from ${TURNS_TABLE} r where r.id = p_row and r.instance = p_instance;
    if not found then
      v_outcome := 'fenced';
    end if;
  elsif p_turn = 'remove_claimed' then
    delete from ${TURNS_TABLE} r
      where r.task_id = p_id and r.turn_id = p_turn_id and r.instance = p_instance;
    if not found then
      v_outcome := 'fenced';
    end if;
  elsif p_turn = 'remove_all' then
    with removed as (delete from ${TURNS_TABLE} r where r.task_id = p_id
                     returning r.turn_id, r.instance)
    select coalesce(json_agg(json_build_object('turnId', turn_id, 'instance', instance)), '[]')::text
      into v_detail from removed;
  end if;
  if v_outcome <> 'applied' then
    return query select v_outcome, v_context_id, v_status, v_metadata, null::text;
    return;
  end if;
  if p_tasks is not null then
    perform ${INSERT_TASKS_FUNCTION}(p_tasks, p_task_messages);
  end if;
  if p_entries is not null then
    ${APPEND_ENTRIES}
  end if;
  if p_write_head then
    update ${TASKS_TABLE} t
      set updated_ms = p_updated, state = p_state, status = p_status, metadata = p_metadata
      where t.id = p_id and t.tenant = p_tenant and t.owner = p_owner;
    v_status := p_status;
    v_metadata := p_metadata;
  end if;
  return query select 'applied'::text, v_context_id, v_status, v_metadata, v_detail;
end
$fn$`;

/**
 * New tasks (`p_id` the one the change is for, the others its sub-tasks) with
 * their histories, the sub-tasks' history within the owner's quota, and with
 * `p_turn_id` its first turn queued. `outcome` as for the change.
 */
const createTasks = `
create or replace function ${CREATE_TASKS_FUNCTION}(
  p_tenant text, p_owner text, p_id text, p_tasks json, p_task_messages json,
  p_quota bigint, p_adding bigint, p_turn_id text, p_limit integer)
returns table (outcome text, detail text)
language plpgsql as $fn$
#variable_conflict use_column
declare
  v_stored bigint;
  v_outcome text := 'applied';
begin
  perform pg_advisory_xact_lock(${LOCK_CLASS.task}, hashtext(p_id));
  ${QUOTA_CHECK}
  if v_outcome = 'applied' and p_turn_id is not null then
    ${QUEUE_TURN}
  end if;
  if v_outcome <> 'applied' then
    return query select v_outcome, v_stored::text;
    return;
  end if;
  perform ${INSERT_TASKS_FUNCTION}(p_tasks, p_task_messages);
  return query select 'applied'::text, null::text;
end
$fn$`;

/**
 * The SDK's save: the task's row replaced (not another owner's of the same
 * id), and of `p_messages` those the task does not hold yet appended after
 * its history's end, in order. The SDK only appends, so the caller sends the
 * history's tail (`p_whole` false) while the task is stored; false comes
 * back, with nothing written, when it is not: the whole history is needed.
 */
const saveTask = `
create or replace function ${SAVE_TASK_FUNCTION}(
  p_tenant text, p_owner text, p_id text, p_task json, p_messages json, p_whole boolean)
returns boolean
language plpgsql as $fn$
declare
  v_next integer;
begin
  perform pg_advisory_xact_lock(${LOCK_CLASS.task}, hashtext(p_id));
  if not p_whole and not exists (select 1 from ${TASKS_TABLE} t
                                 where t.id = p_id and t.tenant = p_tenant and t.owner = p_owner) then
    return false;
  end if;
  select coalesce(max(m.seq) + 1, 0) into v_next from ${MESSAGES_TABLE} m where m.task_id = p_id;
  insert into ${MESSAGES_TABLE} (task_id, seq, message_id, message, reply_to)
    select p_id, v_next + (row_number() over (order by e.ord))::integer - 1,
           e.message_id, e.message, e.reply_to
    from rows from (json_to_recordset(p_messages) as (message_id text, message text, reply_to text))
      with ordinality as e(message_id, message, reply_to, ord)
    where not exists (select 1 from ${MESSAGES_TABLE} m
                      where m.task_id = p_id and m.message_id = e.message_id)
    on conflict (task_id, message_id) do nothing;
  perform ${INSERT_TASKS_FUNCTION}(p_task, '[]'::json);
  return true;
end
$fn$`;

export async function installChangeFunctions(db: AnyKysely): Promise<void> {
  for (const definition of [changeTask, createTasks, saveTask])
    await sql.raw(definition).execute(db);
}
