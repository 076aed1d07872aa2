import type { Message, Task } from '@a2a-js/sdk';
import type { TaskHead } from 'a2a-commands/server';
import { withoutReplyTags } from 'a2a-commands/server/internal';
import type pg from 'pg';
import { HistoryQuotaError } from '../history-quota.js';
import type { Owner } from '../owner.js';
import {
  MessageIdTakenError,
  type RemovedTurn,
  type TaskChange,
  type TurnRowWrite,
} from '../task-change.js';
import { encode, headOfRow, statusColumnsOf, type HeadRow } from '../task-rows.js';
import {
  CHANGE_TASK_FUNCTION,
  CREATE_TASKS_FUNCTION,
  SAVE_TASK_FUNCTION,
} from './change-functions.js';
import { entryRows, newTaskRows } from './json-rows.js';
import type { RequestKey } from '../task-repository.js';
import type { HistoryQuotaCheck, TaskWriters } from '../task-writers.js';
import type { RequestHeads } from './request-heads.js';

/** What the change functions answer (`change-functions.ts`). */
interface ChangeRow {
  outcome: 'applied' | 'stale' | 'taken' | 'quota' | 'full' | 'fenced';
  head_context_id: string;
  head_status: string | null;
  head_metadata: string | null;
  detail: string | null;
}

/**
 * How many times a change is computed again because another writer changed
 * the head meanwhile. Each retry means another write committed, so reaching
 * this takes a task written to without pause.
 */
const CHANGE_ATTEMPTS = 50;

/** How many of a save's newest messages are sent while the task is stored: the SDK only appends. */
const SAVE_TAIL = 100;

/**
 * Task changes on PostgreSQL as calls of the change functions: a head (the
 * one the request last saw, or one read now), the change computed from it
 * (its refusal, status and metadata), then one call that writes it with its
 * turn row, and new tasks with their first turn's row in one call. One round
 * trip for a change from a head still stored, two otherwise; one for new tasks.
 */
export class PostgresTaskChanges {
  constructor(
    private readonly pool: pg.Pool,
    private readonly heads: RequestHeads,
    private readonly writers: TaskWriters,
  ) {}

  /**
   * `change` from the head `request` last saw when it saw one (one round trip
   * when that is still the stored head), else from a head read now. A refusal
   * is only decided on a head read now.
   */
  async update(
    owner: Owner,
    taskId: string,
    change: TaskChange,
    request?: RequestKey,
  ): Promise<TaskHead | undefined> {
    const entries = change.append?.length
      ? entryRows(taskId, change.append, change.replyLink)
      : null;
    const subtasks = change.create?.length ? newTaskRows(change.create, owner) : undefined;
    const quota = this.writers.quotaOf(change.create);
    const turn = turnParameters(change.turnRow);
    const writesHead = change.status !== undefined || change.metadata !== undefined;
    const seen = request && this.heads.seenHead(request, taskId);
    let remembered = seen !== undefined;
    let row: HeadRow | undefined = seen ?? (await this.heads.readHead(taskId, owner));
    for (let attempt = 1; row; attempt++) {
      const head = headOfRow(taskId, row);
      const refused = change.refuse?.(head);
      if (refused && remembered) {
        remembered = false;
        row = await this.heads.readHead(taskId, owner);
        continue;
      }
      if (refused) throw refused;
      if (change.status) head.status = change.status(head.status);
      if (change.metadata)
        head.metadata = withoutReplyTags(change.metadata(structuredClone(head.metadata ?? {})));
      const [updatedMs, state, status] = statusColumnsOf(head.status);
      const result = await this.pool.query<ChangeRow>({
        name: CHANGE_TASK_FUNCTION,
        text: `select * from ${CHANGE_TASK_FUNCTION}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
        values: [
          owner.tenant,
          owner.owner,
          taskId,
          row.status,
          row.metadata,
          entries,
          change.appendOnce === true,
          writesHead,
          updatedMs,
          state,
          status,
          encode(head.metadata),
          subtasks?.rows ?? null,
          subtasks?.messages ?? null,
          quota?.limit ?? null,
          quota?.adding ?? null,
          ...turn,
        ],
      });
      const answer = result.rows[0];
      if (!answer) return undefined;
      const stored: HeadRow = {
        context_id: answer.head_context_id,
        status: answer.head_status,
        metadata: answer.head_metadata,
      };
      if (request) this.heads.rememberHead(request, taskId, stored);
      switch (answer.outcome) {
        case 'applied':
          if (change.turnRow?.kind === 'removeAll')
            change.turnRow.removed.push(...(JSON.parse(answer.detail!) as RemovedTurn[]));
          return head;
        case 'stale':
          if (attempt >= CHANGE_ATTEMPTS)
            throw new Error(`task ${taskId}: its head kept changing under a change`);
          row = stored;
          remembered = false;
          break;
        case 'fenced':
          return undefined;
        default:
          throw refusal(answer, taskId, quota, change.turnRow);
      }
    }
    return undefined;
  }

  /** New tasks; the last is the one `turnRow` (a queued turn) is for. */
  async create(owner: Owner, tasks: Task[], turnRow?: TurnRowWrite): Promise<void> {
    if (turnRow && turnRow.kind !== 'queue')
      throw new Error(`a new task's turn row is queued, not ${turnRow.kind}`);
    const { rows, messages } = newTaskRows(tasks, owner);
    const quota = this.writers.quotaOf(tasks.slice(0, -1));
    const result = await this.pool.query<ChangeRow>({
      name: CREATE_TASKS_FUNCTION,
      text: `select * from ${CREATE_TASKS_FUNCTION}($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      values: [
        owner.tenant,
        owner.owner,
        tasks.at(-1)!.id,
        rows,
        messages,
        quota?.limit ?? null,
        quota?.adding ?? null,
        turnRow?.turnId ?? null,
        turnRow?.limit ?? null,
      ],
    });
    const answer = result.rows[0]!;
    if (answer.outcome !== 'applied') throw refusal(answer, tasks.at(-1)!.id, quota, turnRow);
  }

  /**
   * The SDK's save: the head replaced, messages not yet stored appended. One
   * call with the history's last messages; a second with all of it when the
   * task was not stored.
   */
  async save(owner: Owner, task: Task): Promise<void> {
    const row = newTaskRows([{ ...task, history: [] }], owner).rows;
    const save = async (history: Message[], whole: boolean) => {
      const result = await this.pool.query<{ saved: boolean }>({
        name: SAVE_TASK_FUNCTION,
        text: `select ${SAVE_TASK_FUNCTION}($1, $2, $3, $4, $5, $6) as saved`,
        values: [owner.tenant, owner.owner, task.id, row, entryRows(task.id, history), whole],
      });
      return result.rows[0]!.saved;
    };
    if (task.history.length <= SAVE_TAIL || !(await save(task.history.slice(-SAVE_TAIL), false)))
      await save(task.history, true);
  }
}

/** The turn row write as the function's last five arguments: kind, turn id, row id, instance, limit. */
function turnParameters(write: TurnRowWrite | undefined): unknown[] {
  switch (write?.kind) {
    case undefined:
      return [null, null, null, null, null];
    case 'queue':
      return ['queue', write.turnId, null, null, write.limit];
    case 'fence':
      return ['fence', null, write.rowId, write.instance, null];
    case 'removeClaimed':
      return ['remove_claimed', write.turnId, null, write.instance, null];
    case 'removeAll':
      return ['remove_all', null, null, null, null];
    default:
      return unhandled(write);
  }
}

/** The error a refused change is thrown as. */
function refusal(
  answer: Pick<ChangeRow, 'outcome' | 'detail'>,
  taskId: string,
  quota: HistoryQuotaCheck | undefined,
  turnRow: TurnRowWrite | undefined,
): Error {
  if (answer.outcome === 'taken') return new MessageIdTakenError(taskId, answer.detail!);
  if (answer.outcome === 'quota' && quota)
    return new HistoryQuotaError(quota.adding, Number(answer.detail), quota.limit);
  if (answer.outcome === 'full' && turnRow?.kind === 'queue') return turnRow.whenFull;
  return new Error(`task ${taskId}: the change function answered ${answer.outcome}`);
}

function unhandled(value: never): never {
  throw new Error(`unhandled turn row write: ${JSON.stringify(value)}`);
}
