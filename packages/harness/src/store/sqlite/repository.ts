import type { Artifact, ListTasksRequest, ListTasksResponse, Message, Task } from '@a2a-js/sdk';
import type { CommandEffects, TaskHead } from 'a2a-commands/server';
import type SqliteDatabase from 'better-sqlite3';
import type { TaskWriters } from '../task-writers.js';
import type { GroupCommit } from '../group-commit.js';
import type { KyselyReads } from '../kysely-reads.js';
import type { Owner } from '../owner.js';
import { noTurnRows, type TaskChange, type TurnRowWrite } from '../task-change.js';
import type { HistoryRange, TaskRepository } from '../task-repository.js';
import { SqliteReads } from './reads.js';
import { SqliteWrites } from './writes.js';

/**
 * Tasks on SQLite: prepared statements on better-sqlite3's connection, the
 * changes that arrive together in one transaction (`GroupCommit`). Turn rows
 * are PostgreSQL's: one process alone on SQLite queues its turns in memory.
 *
 * Reads go straight to the connection, except while kysely holds a
 * transaction open on it: they could see its uncommitted writes then, so they
 * go through kysely and wait for it.
 */
export class SqliteTaskRepository implements TaskRepository {
  private readonly writes: SqliteWrites;
  private readonly now: SqliteReads;

  constructor(
    connection: SqliteDatabase.Database,
    commits: GroupCommit,
    private readonly writers: TaskWriters,
    private readonly reads: KyselyReads,
  ) {
    this.writes = new SqliteWrites(connection, commits, writers);
    this.now = new SqliteReads(connection);
  }

  async head(owner: Owner, taskId: string): Promise<TaskHead | undefined> {
    if (this.now.usable) return this.now.head(taskId, owner);
    return this.reads.head(owner, taskId);
  }

  async findMessage(
    taskId: string,
    messageId: string,
  ): Promise<{ seq: number; message: Message } | undefined> {
    if (this.now.usable) return this.now.findMessage(taskId, messageId);
    return this.reads.findMessage(taskId, messageId);
  }

  async findReply(taskId: string, commandId: string): Promise<Message | undefined> {
    if (this.now.usable) return this.now.findReply(taskId, commandId);
    return this.reads.findReply(taskId, commandId);
  }

  task(owner: Owner, taskId: string): Promise<Task | undefined> {
    return this.reads.task(owner, taskId);
  }

  list(owner: Owner, params: ListTasksRequest): Promise<ListTasksResponse> {
    return this.reads.list(owner, params);
  }

  async history(taskId: string, range: HistoryRange): Promise<Message[]> {
    if (this.now.usable) return this.now.history(taskId, range);
    return this.reads.history(taskId, range);
  }

  historyEnd(taskId: string): Promise<number> {
    return this.reads.historyEnd(taskId);
  }

  messageAt(taskId: string, seq: number): Promise<Message | undefined> {
    return this.reads.messageAt(taskId, seq);
  }

  create(owner: Owner, tasks: Task[], turnRow?: TurnRowWrite): Promise<void> {
    // One process alone on its database queues its turns in memory (`turns/local-turns.ts`).
    if (turnRow) return Promise.reject(noTurnRows(turnRow));
    return this.writers.timed(this.writes.create(tasks, owner));
  }

  update(owner: Owner, taskId: string, change: TaskChange): Promise<TaskHead | undefined> {
    return this.writers.timed(this.writes.update(taskId, owner, change));
  }

  appendReply(
    owner: Owner,
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    effects: CommandEffects,
  ): Promise<TaskHead | undefined> {
    return this.writers.timed(
      this.writes.appendReply(taskId, owner, entries, statusMessage, effects),
    );
  }

  save(owner: Owner, task: Task): Promise<void> {
    return this.writers.timed(this.writes.save(task, owner));
  }

  keepAnswerArtifact(owner: Owner, taskId: string, answer: Artifact): Promise<void> {
    return this.writers.timed(this.writes.keepAnswerArtifact(taskId, owner, answer));
  }
}
