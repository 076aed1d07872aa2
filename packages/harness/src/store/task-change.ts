import { TaskState, type Message, type Task, type TaskStatus } from '@a2a-js/sdk';
import type { TaskMetadata } from 'a2a-commands';
import type { CommandEffects, TaskHead } from 'a2a-commands/server';
import { replyLinkOf, type ReplyLink } from './messages-table.js';

/** A turn's row dropped by a cancel: which turn, and who ran it (null: it was waiting). */
export interface RemovedTurn {
  turnId: string;
  instance: string | null;
}

/**
 * A write to the task's turn rows (`turn-rows.ts`, PostgreSQL shared by
 * instances) made in the same transaction as a task change, under the task's
 * lock. A closed set, so that each database's repository can make the whole
 * change one call.
 */
export type TurnRowWrite =
  /** The message's turn queued; `whenFull` is thrown when `limit` turns already wait. */
  | { kind: 'queue'; turnId: string; limit: number; whenFull: Error }
  /** A turn's own write: vetoed once row `rowId` is no longer `instance`'s. */
  | { kind: 'fence'; rowId: string; instance: string }
  /** Another hand ends `instance`'s turn: its row goes, and the change is vetoed if it is gone. */
  | { kind: 'removeClaimed'; turnId: string; instance: string }
  /** A cancel: every turn row of the task goes, and `removed` is filled with them. */
  | { kind: 'removeAll'; removed: RemovedTurn[] };

/** One atomic change to a task: messages appended, and the head's status and metadata rewritten. */
export interface TaskChange {
  /** Checked on the stored head before anything is written: an error it returns is thrown. */
  refuse?: (current: TaskHead) => Error | undefined;
  append?: Message[];
  /** When `append` is a command and its reply: the link retries find the reply by. */
  replyLink?: ReplyLink;
  status?: (current: TaskStatus | undefined) => TaskStatus | undefined;
  metadata?: (current: TaskMetadata) => TaskMetadata;
  /**
   * Made in the same transaction, before anything else is written: for writes
   * that must happen with the change or not at all (a queued turn's row). A
   * vetoing write leaves the task as it is, and `update` then returns undefined.
   */
  turnRow?: TurnRowWrite;
  /** New tasks stored in the same transaction: a command's sub-tasks. */
  create?: Task[];
  /**
   * SEMANTICS §8: `append`'s messages are new to the task. One whose id the
   * task already holds refuses the whole change with `MessageIdTakenError`.
   */
  appendOnce?: boolean;
}

/** A turn row write reached a repository whose database keeps no turn rows (SQLite). */
export function noTurnRows(write: TurnRowWrite): Error {
  return new Error(`turn rows (${write.kind}) are kept on PostgreSQL only`);
}

/** A message id the task already holds was sent again (SEMANTICS §8). */
export class MessageIdTakenError extends Error {
  constructor(
    readonly taskId: string,
    readonly messageId: string,
  ) {
    super(`task ${taskId} already holds message ${messageId}`);
    this.name = 'MessageIdTakenError';
  }
}

/** A command's reply as a task change: the entries linked, the state kept (SEMANTICS §4). */
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
