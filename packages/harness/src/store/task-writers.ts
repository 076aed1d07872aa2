import type { Task } from '@a2a-js/sdk';
import { KeyedLock } from 'a2a-commands/server/internal';
import { historyCharsOf } from './history-quota.js';

/** New tasks' history against the owner's quota: the limit, and how much they add. */
export interface HistoryQuotaCheck {
  limit: number;
  adding: number;
}

export interface TaskWritersOptions {
  /** limits.historyCharsPerOwner: how much history new sub-tasks and forks may fill. */
  historyCharsPerOwner: number;
  /** Told how many seconds each write took (the in-process lock's wait not included). */
  onWrite?: (seconds: number) => void;
}

/**
 * What both repositories share around their writes: one writer of a task at
 * a time in this process, each write timed for the metrics, and whether new
 * tasks must be checked against the history quota.
 */
export class TaskWriters {
  /** One writer of a task at a time in this process: a busy task's writers stay off the pool. */
  readonly lock = new KeyedLock();

  constructor(private readonly options: TaskWritersOptions) {}

  /** Whether storing `subtasks` must check the owner's history quota first. */
  quotaApplies(subtasks: readonly Task[] | undefined): boolean {
    return this.quotaOf(subtasks) !== undefined;
  }

  /** The quota `tasks`' history is checked against, and what it adds; undefined when there is nothing to check. */
  quotaOf(tasks: readonly Task[] | undefined): HistoryQuotaCheck | undefined {
    if (!tasks?.length || !Number.isFinite(this.options.historyCharsPerOwner)) return undefined;
    const adding = historyCharsOf(tasks);
    return adding > 0 ? { limit: this.options.historyCharsPerOwner, adding } : undefined;
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

  /** `write` alone among this process's writers of the task, and timed. */
  run<T>(taskId: string, write: () => Promise<T>): Promise<T> {
    return this.lock.run(taskId, () => this.timed(write()));
  }
}
