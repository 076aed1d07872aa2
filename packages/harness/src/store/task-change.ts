import type { Message, Task, TaskStatus } from '@a2a-js/sdk';
import type { TaskMetadata } from 'a2a-commands';
import type { TaskHead } from 'a2a-commands/server';
import type { AnyKysely } from './advisory-locks.js';
import type { ReplyLink } from './messages-table.js';

/** A write made in a task change's transaction; false vetoes the change. */
export type AlongsideWrite = (db: AnyKysely) => Promise<boolean | void>;

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
   * Runs first, in the same transaction: for writes that must happen with the
   * change or not at all (a queued turn's row). Returning false leaves the task
   * as it is, and `update` then returns undefined.
   */
  alongside?: AlongsideWrite;
  /** New tasks stored in the same transaction: a command's sub-tasks. */
  create?: Task[];
  /**
   * SEMANTICS §8: `append`'s messages are new to the task. One whose id the
   * task already holds refuses the whole change with `MessageIdTakenError`.
   */
  appendOnce?: boolean;
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
