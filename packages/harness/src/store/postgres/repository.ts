import type {
  Artifact,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  Task,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import type { CommandEffects, StoredReply, TaskHead } from 'a2a-commands/server';
import type pg from 'pg';
import type { TaskWriters } from '../task-writers.js';
import type { KyselyReads } from '../kysely-reads.js';
import type { Owner } from '../owner.js';
import type { ReplyNotifier } from '../reply-notices.js';
import { replyChange, type TaskChange, type TurnRowWrite } from '../task-change.js';
import type { HistoryRange, RequestKey, TaskRepository } from '../task-repository.js';
import { PostgresCommandWrites } from './command-writes.js';
import { RequestHeads } from './request-heads.js';
import { PostgresTaskChanges } from './task-changes.js';
import { keepAnswer } from './turn-functions.js';

/**
 * Tasks on PostgreSQL, shared by instances: every transaction on a task first
 * takes its advisory lock. A command is one call of a function the migrations
 * install (`command-functions.ts`): one round trip for a new task, and the
 * head read with the retry check plus that call on an existing one. Every
 * other change (a turn's message, start and ending, a cancel, a fork's copy)
 * is one call from the head its request last saw, or a head read and the call
 * (`task-changes.ts`), its turn row written in
 * that call, and the SDK's save is one call too (two when it stores a task
 * with a long history); a turn's answer is one call (`turn-functions.ts`).
 * In this process, one writer of a task at a time holds a connection
 * (`TaskWriters`).
 */
export class PostgresTaskRepository implements TaskRepository {
  private readonly heads: RequestHeads;
  private readonly commands: PostgresCommandWrites;
  private readonly changes: PostgresTaskChanges;
  private replyNotifier?: ReplyNotifier;

  constructor(
    private readonly pool: pg.Pool,
    private readonly writers: TaskWriters,
    private readonly reads: KyselyReads,
  ) {
    this.heads = new RequestHeads(pool);
    this.commands = new PostgresCommandWrites(pool, this.heads);
    this.changes = new PostgresTaskChanges(pool, this.heads, writers);
  }

  notifyRepliesWith(notifier: ReplyNotifier): void {
    this.replyNotifier = notifier;
  }

  head(owner: Owner, taskId: string, request?: RequestKey): Promise<TaskHead | undefined> {
    return this.heads.loadHead(taskId, owner, request);
  }

  findMessage(
    taskId: string,
    messageId: string,
    asker?: { owner: Owner; request: RequestKey },
  ): Promise<{ seq: number; message: Message } | undefined> {
    if (!asker) return this.reads.findMessage(taskId, messageId);
    return this.heads.findMessage(taskId, messageId, asker.owner, asker.request);
  }

  findReply(taskId: string, commandId: string): Promise<Message | undefined> {
    return this.reads.findReply(taskId, commandId);
  }

  task(owner: Owner, taskId: string): Promise<Task | undefined> {
    return this.reads.task(owner, taskId);
  }

  list(owner: Owner, params: ListTasksRequest): Promise<ListTasksResponse> {
    return this.reads.list(owner, params);
  }

  history(taskId: string, range: HistoryRange): Promise<Message[]> {
    return this.reads.history(taskId, range);
  }

  historyEnd(taskId: string): Promise<number> {
    return this.reads.historyEnd(taskId);
  }

  messageAt(taskId: string, seq: number): Promise<Message | undefined> {
    return this.reads.messageAt(taskId, seq);
  }

  create(owner: Owner, tasks: Task[], turnRow?: TurnRowWrite): Promise<void> {
    if (turnRow || this.writers.quotaApplies(tasks.slice(0, -1)))
      return this.writers.timed(this.changes.create(owner, tasks, turnRow));
    return this.writers.timed(this.commands.create(tasks, owner));
  }

  update(
    owner: Owner,
    taskId: string,
    change: TaskChange,
    request?: RequestKey,
  ): Promise<TaskHead | undefined> {
    return this.writers.run(taskId, () => this.changes.update(owner, taskId, change, request));
  }

  appendReply(
    owner: Owner,
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    effects: CommandEffects,
    request?: RequestKey,
    replyEvent?: TaskStatusUpdateEvent,
  ): Promise<StoredReply | undefined> {
    if (this.writers.quotaApplies(effects.subtasks))
      return this.update(owner, taskId, replyChange(entries, statusMessage, effects));
    return this.writers.lock.run(taskId, () =>
      this.writers.timed(
        this.commands.appendReply(
          taskId,
          owner,
          entries,
          statusMessage,
          effects,
          request,
          replyEvent && this.replyNotifier && { event: replyEvent, notifier: this.replyNotifier },
        ),
      ),
    );
  }

  save(owner: Owner, task: Task): Promise<void> {
    return this.writers.run(task.id, () => this.changes.save(owner, task));
  }

  keepAnswerArtifact(owner: Owner, taskId: string, answer: Artifact): Promise<void> {
    return this.writers.run(taskId, () => keepAnswer(this.pool, owner, taskId, answer));
  }
}
