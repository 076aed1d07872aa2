import {
  TaskState,
  taskStateToJSON,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type Task,
} from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { sql, type Kysely } from 'kysely';
import { fromRow, MESSAGES_TABLE, type MessagesTable } from './messages-table.js';
import type { Owner } from './owner.js';
import { statusLastUpdated, TASKS_TABLE, taskOfRow, type TasksTable } from './task-rows.js';

type Db = Kysely<TasksTable & MessagesTable>;

/** The SDK's page size when a request names none. */
const DEFAULT_PAGE_SIZE = 50;

/**
 * GetTask's read of a task: its head with its artifacts, history left empty
 * (the caller reads it from the messages table).
 */
export async function readTask(db: Db, owner: Owner, id: string): Promise<Task | undefined> {
  const row = await db
    .selectFrom(TASKS_TABLE)
    .select(['id', 'context_id', 'status', 'artifacts', 'metadata'])
    .where('id', '=', id)
    .where('tenant', '=', owner.tenant)
    .where('owner', '=', owner.owner)
    .executeTakeFirst();
  return row && taskOfRow(row);
}

/**
 * ListTasks as the SDK's database store answers it: the owner's tasks, newest
 * status first (ties by id, descending), filtered by context, state and
 * status time; `totalSize` counts every match, a page token names the last
 * task of the page. Artifacts only with `includeArtifacts`; with
 * `historyLength` > 0, each task's last messages, read in one query.
 */
export async function listTasks(
  db: Db,
  owner: Owner,
  params: ListTasksRequest,
): Promise<ListTasksResponse> {
  const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
  const matching = db
    .selectFrom(TASKS_TABLE)
    .where('tenant', '=', owner.tenant)
    .where('owner', '=', owner.owner)
    .$if(Boolean(params.contextId), (query) => query.where('context_id', '=', params.contextId!))
    .$if(
      params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED,
      (query) => query.where('state', '=', taskStateToJSON(params.status!)),
    )
    .$if(Boolean(params.statusTimestampAfter), (query) =>
      query.where('updated_ms', '>', Date.parse(params.statusTimestampAfter!)),
    );
  const { total } = await matching
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .executeTakeFirstOrThrow();
  const cursor = params.pageToken ? cursorOf(params.pageToken) : undefined;
  const rows = await matching
    .select(['id', 'context_id', 'status', 'metadata', 'updated_ms'])
    .$if(Boolean(params.includeArtifacts), (query) => query.select('artifacts'))
    .$if(cursor !== undefined, (query) =>
      query.where((eb) =>
        eb.or([
          eb('updated_ms', '<', cursor!.updatedMs),
          eb.and([eb('updated_ms', '=', cursor!.updatedMs), eb('id', '<', cursor!.id)]),
        ]),
      ),
    )
    .orderBy('updated_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .execute();
  const page = rows.slice(0, pageSize);
  const tasks: Task[] = [];
  for (const row of page) {
    // As the SDK does: a row that cannot be read is left out, not the whole page.
    try {
      tasks.push(taskOfRow(row));
    } catch {
      continue;
    }
  }
  const historyLength = params.historyLength ?? 0;
  if (historyLength > 0 && tasks.length > 0) {
    const histories = await lastMessages(
      db,
      tasks.map((task) => task.id),
      historyLength,
    );
    for (const task of tasks) task.history = histories.get(task.id) ?? [];
  }
  const last = page.at(-1);
  return {
    tasks,
    nextPageToken:
      rows.length > pageSize && last ? pageTokenOf(Number(last.updated_ms), last.id) : '',
    pageSize,
    totalSize: Number(total),
  };
}

/** The last `count` messages of each task, oldest first, in one query. */
async function lastMessages(db: Db, ids: string[], count: number): Promise<Map<string, Message[]>> {
  const ranked = db
    .selectFrom(MESSAGES_TABLE)
    .select([
      'task_id',
      'seq',
      'message',
      sql<number>`row_number() over (partition by task_id order by seq desc)`.as('place'),
    ])
    .where('task_id', 'in', ids)
    .as('ranked');
  const rows = await db
    .selectFrom(ranked)
    .select(['task_id', 'message'])
    .where('place', '<=', Math.min(count, Number.MAX_SAFE_INTEGER))
    .orderBy('task_id')
    .orderBy('seq')
    .execute();
  const histories = new Map<string, Message[]>();
  for (const row of rows) {
    const history = histories.get(row.task_id) ?? [];
    history.push(fromRow(row));
    histories.set(row.task_id, history);
  }
  return histories;
}

/** The SDK's page token: base64 of the last task's status time (ISO, or empty) and its id. */
function pageTokenOf(updatedMs: number, id: string): string {
  const timestamp = updatedMs === 0 ? '' : new Date(updatedMs).toISOString();
  return Buffer.from(`${timestamp}|${id}`).toString('base64');
}

function cursorOf(pageToken: string): { updatedMs: number; id: string } {
  const [timestamp, ...idParts] = Buffer.from(pageToken, 'base64').toString('utf8').split('|');
  if (idParts.length === 0) throw new RequestMalformedError('Invalid page token format.');
  return { updatedMs: statusLastUpdated(timestamp), id: idParts.join('|') };
}
