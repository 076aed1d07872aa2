import { Task, TaskStatus, taskStateToJSON } from '@a2a-js/sdk';
import type { TaskMetadata } from 'a2a-commands';
import type { TaskHead } from 'a2a-commands/server';
import { withoutReplyTags } from 'a2a-commands/server/internal';
import type { Owner } from './owner.js';

/**
 * The SDK's `tasks` row format, for the raw command paths (SQLite and
 * PostgreSQL): what they write is what `DatabaseTaskStore` reads back.
 */

/** The head's columns, as a command reads them. */
export interface HeadRow {
  context_id: string;
  status: string | null;
  metadata: string | null;
}

/** A new task's row, as the SDK's save writes it; its history lives in the messages table. */
export interface TaskRow {
  tenant: string;
  owner: string;
  id: string;
  context_id: string;
  status_last_updated: number;
  status_state: string | null;
  status: string | null;
  artifacts: string | null;
  history: null;
  metadata: string | null;
  protocol_version: string;
}

export function taskRowOf(task: Task, scope: Owner): TaskRow {
  const payload = Task.toJSON({
    ...task,
    history: [],
    metadata: withoutReplyTags(task.metadata),
  }) as { status?: unknown; artifacts?: unknown; metadata?: unknown };
  return {
    tenant: scope.tenant,
    owner: scope.owner,
    id: task.id,
    context_id: task.contextId || '',
    status_last_updated: statusLastUpdated(task.status?.timestamp),
    status_state: task.status ? taskStateToJSON(task.status.state) : null,
    status: encode(payload.status),
    artifacts: encode(payload.artifacts),
    history: null,
    metadata: encode(payload.metadata),
    protocol_version: '1.0',
  };
}

export const TASK_COLUMNS = [
  'tenant',
  'owner',
  'id',
  'context_id',
  'status_last_updated',
  'status_state',
  'status',
  'artifacts',
  'history',
  'metadata',
  'protocol_version',
] as const satisfies readonly (keyof TaskRow)[];

/**
 * As the SDK's save writes a task on SQLite: an upsert of every column, with
 * `taskValuesOf`'s values (positional: binding by name cost more).
 */
export const UPSERT_TASK_SQL = `insert into tasks (${TASK_COLUMNS.join(', ')})
  values (${TASK_COLUMNS.map(() => '?').join(', ')})
  on conflict (tenant, owner, id) do update set ${TASK_COLUMNS.slice(3)
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

/** A new task's row as `UPSERT_TASK_SQL`'s values. */
export function taskValuesOf(task: Task, scope: Owner): unknown[] {
  const row = taskRowOf(task, scope);
  return TASK_COLUMNS.map((column) => row[column]);
}

/** As the SDK's row mapping reads a head, without parsing history or artifacts. */
export function headOfRow(id: string, row: HeadRow): TaskHead {
  const status = row.status ? (JSON.parse(row.status) as unknown) : undefined;
  return {
    id,
    contextId: row.context_id,
    status: status === undefined ? undefined : TaskStatus.fromJSON(status),
    metadata: metadataOf(row.metadata),
  };
}

/** The stored metadata column, parsed; undefined when it holds no object. */
export function metadataOf(column: string | null): TaskMetadata | undefined {
  const metadata = column ? (JSON.parse(column) as unknown) : undefined;
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
    ? (metadata as TaskMetadata)
    : undefined;
}

/** The head's status columns (`status_last_updated`, `status_state`, `status`) for `status`. */
export function statusColumnsOf(
  status: TaskStatus | undefined,
): [lastUpdated: number, state: string | null, json: string | null] {
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

function statusLastUpdated(timestamp: string | undefined): number {
  const parsed = timestamp ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(parsed) ? 0 : parsed;
}
