import { TaskState, type Message, type Task } from '@a2a-js/sdk';
import type { CommandEffects, TaskHead } from 'a2a-commands/server';
import { KeyedLock, withoutReplyTags } from 'a2a-commands/server/internal';
import type { Kysely } from 'kysely';
import { LOCK_CLASS, lockForTransaction } from './advisory-locks.js';
import { historyCharsOf, historyCharsOwned, HistoryQuotaError } from './history-quota.js';
import {
  MESSAGES_TABLE,
  nextSeq,
  replyLinkOf,
  toRow,
  type MessagesTable,
  type ReplyLink,
} from './messages-table.js';
import type { Owner } from './owner.js';
import { MessageIdTakenError, type AlongsideWrite, type TaskChange } from './task-change.js';
import { readHead, upsertTask, writeHead } from './task-head-sql.js';

/** Rows a single INSERT carries (4 parameters each). */
const INSERT_BATCH = 1000;

/** How many of a save's newest messages are checked against the store; the SDK only appends. */
const SAVE_TAIL = 100;

export interface CheckedWritesOptions {
  /** PostgreSQL shared by processes: each transaction first takes the task's advisory lock. */
  shared: boolean;
  /** limits.historyCharsPerOwner: how much history new sub-tasks and forks may fill. */
  historyCharsPerOwner: number;
  /** Told how many seconds each write took (the in-process lock's wait not included). */
  onWrite?: (seconds: number) => void;
}

/**
 * The changes a repository's own statements do not make yet, in one kysely
 * transaction each, on the same rows (`task-head-sql.ts`, `messages-table.ts`):
 * a change with a cluster write alongside, a fork under the history quota,
 * the SDK's save. Both repositories use it.
 */
export class CheckedWrites {
  /** One writer of a task at a time in this process: a busy task's writers stay off the pool. */
  readonly lock = new KeyedLock();

  constructor(
    private readonly db: Kysely<MessagesTable>,
    private readonly options: CheckedWritesOptions,
  ) {}

  /** Whether storing `subtasks` must check the owner's history quota first. */
  quotaApplies(subtasks: readonly Task[] | undefined): boolean {
    return (
      Number.isFinite(this.options.historyCharsPerOwner) &&
      subtasks !== undefined &&
      historyCharsOf(subtasks) > 0
    );
  }

  /** `write`, timed for `onWrite`. */
  timed<T>(write: Promise<T>): Promise<T> {
    const onWrite = this.options.onWrite;
    if (!onWrite) return write;
    const start = process.hrtime.bigint();
    return write.then((value) => {
      onWrite(Number(process.hrtime.bigint() - start) / 1e9);
      return value;
    });
  }

  save(owner: Owner, task: Task): Promise<void> {
    return this.write(task.id, async (db) => {
      const stored = await readHead(db, owner, task.id);
      const tail = task.history.slice(-SAVE_TAIL);
      const known = new Set(
        tail.length === 0
          ? []
          : (
              await db
                .selectFrom(MESSAGES_TABLE)
                .select('message_id')
                .where('task_id', '=', task.id)
                .where(
                  'message_id',
                  'in',
                  tail.map((m) => m.messageId),
                )
                .execute()
            ).map((row) => row.message_id),
      );
      const fresh = stored ? tail.filter((m) => !known.has(m.messageId)) : task.history;
      await appendRows(db, task.id, fresh);
      await upsertTask(db, owner, task);
    });
  }

  /** New tasks; the last is the one `alongside` and the lock are for. */
  create(owner: Owner, tasks: Task[], alongside?: AlongsideWrite): Promise<void> {
    const main = tasks.at(-1)!;
    return this.write(main.id, async (db) => {
      await alongside?.(db);
      await this.checkHistoryQuota(db, tasks.slice(0, -1), owner);
      await insertTasks(db, owner, tasks);
    });
  }

  update(owner: Owner, taskId: string, change: TaskChange): Promise<TaskHead | undefined> {
    return this.write(taskId, async (db) => {
      const head = await readHead(db, owner, taskId);
      if (!head) return undefined;
      const refused = change.refuse?.(head);
      if (refused) throw refused;
      if (change.appendOnce && change.append?.length) {
        const taken = await takenId(db, taskId, change.append);
        if (taken) throw new MessageIdTakenError(taskId, taken);
      }
      if ((await change.alongside?.(db)) === false) return undefined;
      if (change.create) {
        await this.checkHistoryQuota(db, change.create, owner);
        await insertTasks(db, owner, change.create);
      }
      if (change.append?.length)
        await appendRows(db, taskId, change.append, undefined, change.replyLink);
      if (!change.status && !change.metadata) return head;
      if (change.status) head.status = change.status(head.status);
      if (change.metadata)
        head.metadata = withoutReplyTags(change.metadata(structuredClone(head.metadata ?? {})));
      await writeHead(db, owner, head);
      return head;
    });
  }

  private write<T>(taskId: string, change: (db: Kysely<MessagesTable>) => Promise<T>): Promise<T> {
    return this.lock.run(taskId, async () => {
      const start = process.hrtime.bigint();
      try {
        return await this.db.transaction().execute(async (trx) => {
          if (this.options.shared) await lockForTransaction(trx, LOCK_CLASS.task, taskId);
          return change(trx);
        });
      } finally {
        this.options.onWrite?.(Number(process.hrtime.bigint() - start) / 1e9);
      }
    });
  }

  /**
   * History copied into new tasks (a fork) must fit the owner's quota.
   * Checked in the transaction that stores them, under the owner's lock on
   * PostgreSQL, so concurrent forks cannot all pass.
   */
  private async checkHistoryQuota(
    db: Kysely<MessagesTable>,
    subtasks: readonly Task[],
    owner: Owner,
  ): Promise<void> {
    const { historyCharsPerOwner, shared } = this.options;
    const adding = historyCharsOf(subtasks);
    if (adding === 0 || !Number.isFinite(historyCharsPerOwner)) return;
    if (shared) await lockForTransaction(db, LOCK_CLASS.owner, `${owner.tenant}/${owner.owner}`);
    const stored = await historyCharsOwned(db, owner);
    if (stored + adding > historyCharsPerOwner)
      throw new HistoryQuotaError(adding, stored, historyCharsPerOwner);
  }
}

/** A command's reply as a checked change: the entries linked, the state kept (SEMANTICS §4). */
export function replyChange(
  entries: Message[],
  statusMessage: Message,
  effects: CommandEffects,
): TaskChange {
  return {
    append: entries,
    replyLink: replyLinkOf(entries, statusMessage),
    metadata: effects.metadata,
    create: effects.subtasks,
    status: (current) => ({
      state: current?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
      message: statusMessage,
      timestamp: new Date().toISOString(),
    }),
  };
}

/** New tasks: their ids are fresh, so no other writer can hold them yet. */
async function insertTasks(db: Kysely<MessagesTable>, owner: Owner, tasks: Task[]): Promise<void> {
  for (const task of tasks) {
    // A new task's history starts at 0: no need to look for its end.
    await appendRows(db, task.id, task.history, 0, replyLinkOf(task.history, task.status?.message));
    await upsertTask(db, owner, task);
  }
}

async function appendRows(
  db: Kysely<MessagesTable>,
  taskId: string,
  messages: Message[],
  from?: number,
  link?: ReplyLink,
): Promise<void> {
  if (messages.length === 0) return;
  const first = from ?? (await nextSeq(db, taskId));
  // SQLite allows 32,766 parameters a statement and PostgreSQL 65,535: long histories
  // (a fork, an import) go in batches, all in the caller's transaction.
  for (let start = 0; start < messages.length; start += INSERT_BATCH) {
    await db
      .insertInto(MESSAGES_TABLE)
      .values(
        messages
          .slice(start, start + INSERT_BATCH)
          .map((message, i) => toRow(taskId, first + start + i, { ...message, taskId }, link)),
      )
      .onConflict((conflict) => conflict.columns(['task_id', 'message_id']).doNothing())
      .execute();
  }
}

/** The first of `messages`' ids that the task already holds. */
async function takenId(
  db: Kysely<MessagesTable>,
  taskId: string,
  messages: Message[],
): Promise<string | undefined> {
  const row = await db
    .selectFrom(MESSAGES_TABLE)
    .select('message_id')
    .where('task_id', '=', taskId)
    .where(
      'message_id',
      'in',
      messages.map((m) => m.messageId),
    )
    .executeTakeFirst();
  return row?.message_id;
}
