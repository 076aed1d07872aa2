import type { Message, Task } from '@a2a-js/sdk';
import { KeyedLock } from 'a2a-commands/server/internal';
import type { Kysely } from 'kysely';
import { LOCK_CLASS, lockForTransaction } from './advisory-locks.js';
import { historyCharsOf } from './history-quota.js';
import { MESSAGES_TABLE, nextSeq, toRow, type MessagesTable } from './messages-table.js';
import type { Owner } from './owner.js';
import { readHead, upsertTask } from './task-head-sql.js';

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
 * What both repositories share around their writes: the in-process lock of a
 * task, the timing of writes, and the SDK's save on PostgreSQL, a kysely
 * transaction on the rows of `task-head-sql.ts` and `messages-table.ts`.
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
}

async function appendRows(
  db: Kysely<MessagesTable>,
  taskId: string,
  messages: Message[],
): Promise<void> {
  if (messages.length === 0) return;
  const first = await nextSeq(db, taskId);
  // SQLite allows 32,766 parameters a statement and PostgreSQL 65,535: long histories
  // (a fork, an import) go in batches, all in the caller's transaction.
  for (let start = 0; start < messages.length; start += INSERT_BATCH) {
    await db
      .insertInto(MESSAGES_TABLE)
      .values(
        messages
          .slice(start, start + INSERT_BATCH)
          .map((message, i) => toRow(taskId, first + start + i, { ...message, taskId })),
      )
      .onConflict((conflict) => conflict.columns(['task_id', 'message_id']).doNothing())
      .execute();
  }
}
