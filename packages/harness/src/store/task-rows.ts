import { Task, TaskState, TaskStatus, taskStateToJSON } from '@a2a-js/sdk';
import type { TaskMetadata } from 'a2a-commands';
import type { TaskHead } from 'a2a-commands/server';
import { withoutReplyTags } from 'a2a-commands/server/internal';
import { sql } from 'kysely';
import type { Owner } from './owner.js';

/**
 * The harness's own tasks table (made by migration 0008, `migrations.ts`):
 * a task's head, one row per task. Its history lives in the messages table.
 * Status, artifacts and metadata are stored as the A2A JSON of each field.
 */
export const TASKS_TABLE = 'a2a_harness_tasks';

/**
 * The states the sweeps look for, as SQL: their index holds only these tasks
 * (a few at any time), and a query uses it only when it names them so,
 * literally (SQLite cannot match a bound parameter to an index's condition).
 */
export const RUNNING_STATES = sql.raw(
  `(${[TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]
    .map((state) => `'${taskStateToJSON(state)}'`)
    .join(', ')})`,
);

/** The head's columns, as a command reads them. */
export interface HeadRow {
  context_id: string;
  status: string | null;
  metadata: string | null;
}

/** A task's row. Task ids are unique across owners; `tenant` and `owner` scope every read. */
export interface TaskRow {
  id: string;
  tenant: string;
  owner: string;
  context_id: string;
  /** The status's state as its JSON name (`TASK_STATE_WORKING`); null when the task has no status. */
  state: string | null;
  /** The status's timestamp in milliseconds since the epoch; 0 when it has none. */
  updated_ms: number;
  status: string | null;
  artifacts: string | null;
  metadata: string | null;
}

// A type, not an interface: kysely's `withTables` wants an index signature.
export type TasksTable = { [TASKS_TABLE]: TaskRow };

export function taskRowOf(task: Task, scope: Owner): TaskRow {
  const payload = Task.toJSON({
    ...task,
    history: [],
    metadata: withoutReplyTags(task.metadata),
  }) as { status?: unknown; artifacts?: unknown; metadata?: unknown };
  return {
    id: task.id,
    tenant: scope.tenant,
    owner: scope.owner,
    context_id: task.contextId || '',
    state: task.status ? taskStateToJSON(task.status.state) : null,
    updated_ms: statusLastUpdated(task.status?.timestamp),
    status: encode(payload.status),
    artifacts: encode(payload.artifacts),
    metadata: encode(payload.metadata),
  };
}

export const TASK_COLUMNS = [
  'id',
  'tenant',
  'owner',
  'context_id',
  'state',
  'updated_ms',
  'status',
  'artifacts',
  'metadata',
] as const satisfies readonly (keyof TaskRow)[];

/** The columns a save replaces: all but the keys. */
export const REPLACED_COLUMNS = TASK_COLUMNS.slice(4);

/**
 * A task's row inserted, or replaced when the same owner already has it (the
 * SDK's save), with `taskValuesOf`'s values (positional: binding by name cost
 * more). Another owner's task of the same id is left as it is.
 */
export const UPSERT_TASK_SQL = `insert into ${TASKS_TABLE} (${TASK_COLUMNS.join(', ')})
  values (${TASK_COLUMNS.map(() => '?').join(', ')})
  on conflict (id) do update set ${REPLACED_COLUMNS.map(
    (column) => `${column} = excluded.${column}`,
  ).join(', ')}
  where ${TASKS_TABLE}.tenant = excluded.tenant and ${TASKS_TABLE}.owner = excluded.owner`;

/** A task's row as `UPSERT_TASK_SQL`'s values. */
export function taskValuesOf(task: Task, scope: Owner): unknown[] {
  const row = taskRowOf(task, scope);
  return TASK_COLUMNS.map((column) => row[column]);
}

/** A head read from its row, without history or artifacts. */
export function headOfRow(id: string, row: HeadRow): TaskHead {
  const status = row.status ? (JSON.parse(row.status) as unknown) : undefined;
  return {
    id,
    contextId: row.context_id,
    status: status === undefined ? undefined : TaskStatus.fromJSON(status),
    metadata: metadataOf(row.metadata),
  };
}

/** A whole task read from its row (artifacts only when selected), with an empty history. */
export function taskOfRow(
  row: Pick<TaskRow, 'id' | 'context_id' | 'status' | 'metadata'> & { artifacts?: string | null },
): Task {
  return Task.fromJSON({
    id: row.id,
    contextId: row.context_id,
    status: decode(row.status),
    artifacts: decode(row.artifacts ?? null),
    history: [],
    metadata: decode(row.metadata),
  });
}

/** The stored metadata column, parsed; undefined when it holds no object. */
export function metadataOf(column: string | null): TaskMetadata | undefined {
  const metadata = column ? (JSON.parse(column) as unknown) : undefined;
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
    ? (metadata as TaskMetadata)
    : undefined;
}

/** The head's status columns (`updated_ms`, `state`, `status`) for `status`. */
export function statusColumnsOf(
  status: TaskStatus | undefined,
): [updatedMs: number, state: string | null, json: string | null] {
  return status
    ? [
        statusLastUpdated(status.timestamp),
        taskStateToJSON(status.state),
        JSON.stringify(TaskStatus.toJSON(status)),
      ]
    : [0, null, null];
}

export function encode(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function decode(value: string | null): unknown {
  return value ? (JSON.parse(value) as unknown) : undefined;
}

export function statusLastUpdated(timestamp: string | undefined): number {
  const parsed = timestamp ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(parsed) ? 0 : parsed;
}
