import type {
  Artifact,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  Task,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import type { OwnerResolver, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { TaskMetadata } from 'a2a-commands';
import type { CommandEffects, CommandTaskStore, StoredReply, TaskHead } from 'a2a-commands/server';
import type { Kysely } from 'kysely';
import { postgresPoolOf, sqliteConnectionOf, walCheckpointsOf } from './database.js';
import { GroupCommit } from './group-commit.js';
import { historyCharsOwned } from './history-quota.js';
import { KyselyReads } from './kysely-reads.js';
import type { MessagesTable } from './messages-table.js';
import { ownerOf, taskOwnerResolver, type Owner } from './owner.js';
import { PostgresTaskRepository } from './postgres/repository.js';
import type { ReplyNotifier } from './reply-notices.js';
import { SqliteTaskRepository } from './sqlite/repository.js';
import type { TaskChange, TurnRowWrite } from './task-change.js';
import { newTaskId } from './task-ids.js';
import { TaskKeyReads, type TaskKeys } from './task-keys.js';
import type { TaskRepository } from './task-repository.js';
import { TaskWriters } from './task-writers.js';

export {
  MessageIdTakenError,
  type RemovedTurn,
  type TaskChange,
  type TurnRowWrite,
} from './task-change.js';
export type { TaskKeys } from './task-keys.js';

/**
 * The SDK's `TaskStore` and the library's `CommandTaskStore` over the
 * database's one task repository (`sqlite/`, `postgres/`; the interface is
 * `task-repository.ts`). It resolves each call's owner (`owner.ts`) and
 * forwards: the SDK sees only its `TaskStore` interface over the repository.
 */
export class HarnessTaskStore implements TaskStore, CommandTaskStore {
  private readonly repository: TaskRepository;
  private readonly keys: TaskKeyReads;
  /** Who owns what a call stores and reads: the one resolver. */
  private readonly resolveOwner: OwnerResolver;
  private readonly historyCharsPerOwner: number;

  constructor(
    private readonly db: Kysely<MessagesTable>,
    options: {
      groupCommit?: boolean;
      /** Told how many seconds each task write took (a transaction's lock wait not included). */
      onWrite?: (seconds: number) => void;
      /** limits.historyCharsPerOwner: how much history new sub-tasks and forks may fill. */
      historyCharsPerOwner?: number;
      /** How a request's caller becomes a task's owner; the SDK's rule by default. */
      ownerResolver?: OwnerResolver;
    } = {},
  ) {
    this.historyCharsPerOwner = options.historyCharsPerOwner ?? Infinity;
    this.resolveOwner = taskOwnerResolver(options.ownerResolver);
    this.keys = new TaskKeyReads(db);
    const writers = new TaskWriters({
      historyCharsPerOwner: this.historyCharsPerOwner,
      onWrite: options.onWrite,
    });
    const reads = new KyselyReads(db);
    const sqlite = sqliteConnectionOf(db);
    const pool = postgresPoolOf(db);
    if (sqlite) {
      // Kysely's connection, once its open transaction (if any) has ended.
      const exclusive = <T>(run: () => T | Promise<T>) =>
        db.connection().execute(async () => run());
      const commits = new GroupCommit(sqlite, exclusive, options.groupCommit ?? true);
      walCheckpointsOf(db)?.holdWritesWith((run) => commits.quiet(run));
      this.repository = new SqliteTaskRepository(sqlite, commits, writers, reads);
    } else if (pool) {
      this.repository = new PostgresTaskRepository(pool, writers, reads);
    } else {
      throw new Error('the task store needs a database opened by openDatabase');
    }
  }

  /** Whose the tasks `context` stores and reads are. */
  ownerOf(context: ServerCallContext): Owner {
    return ownerOf(context, this.resolveOwner);
  }

  /**
   * On PostgreSQL shared by instances: a command's reply is told to the
   * others inside the write that stores it, instead of in a NOTIFY of its own.
   */
  notifyRepliesWith(notifier: ReplyNotifier): void {
    this.repository.notifyRepliesWith?.(notifier);
  }

  /** Ids that sort by creation time (`task-ids.ts`). */
  newId(): string {
    return newTaskId();
  }

  /** The whole task, or its last `historyLength` messages. */
  async load(
    taskId: string,
    context: ServerCallContext,
    historyLength?: number,
  ): Promise<Task | undefined> {
    const task = await this.repository.task(this.ownerOf(context), taskId);
    if (!task) return undefined;
    if (historyLength !== 0)
      task.history = await this.repository.history(taskId, { last: historyLength });
    return task;
  }

  /** The head; on PostgreSQL the request remembers what it read, for its own append. */
  loadHead(taskId: string, context: ServerCallContext): Promise<TaskHead | undefined> {
    return this.repository.head(this.ownerOf(context), taskId, context);
  }

  loadHistory(
    taskId: string,
    _context: ServerCallContext,
    options: { from?: number; last?: number } = {},
  ): Promise<Message[]> {
    return this.repository.history(taskId, options);
  }

  /** Where the next message of the task's history will go: `/clear` starts the model's context there. */
  historyEnd(taskId: string): Promise<number> {
    return this.repository.historyEnd(taskId);
  }

  /** ListTasks: with `historyLength` > 0, each task's last messages are read with the page. */
  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.repository.list(this.ownerOf(context), params);
  }

  /** The SDK's save: the head is replaced; messages it has not seen stored are appended. */
  save(task: Task, context: ServerCallContext): Promise<void> {
    return this.repository.save(this.ownerOf(context), task);
  }

  /**
   * Stores a new task, and the sub-tasks a command made with it, in one
   * transaction, with `turnRow` (the task's first turn queued).
   */
  create(
    task: Task,
    context: ServerCallContext,
    effects: Pick<CommandEffects, 'subtasks'> = {},
    turnRow?: TurnRowWrite,
  ): Promise<void> {
    return this.repository.create(
      this.ownerOf(context),
      [...(effects.subtasks ?? []), task],
      turnRow,
    );
  }

  /**
   * Applies `change` atomically; undefined when the task does not exist for
   * this caller. On PostgreSQL the change starts from the head this request
   * last saw, checked by the write itself.
   */
  update(
    taskId: string,
    context: ServerCallContext,
    change: TaskChange,
  ): Promise<TaskHead | undefined> {
    return this.repository.update(this.ownerOf(context), taskId, change, context);
  }

  appendReply(
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    context: ServerCallContext,
    effects: CommandEffects = {},
    replyEvent?: TaskStatusUpdateEvent,
  ): Promise<StoredReply | undefined> {
    return this.repository.appendReply(
      this.ownerOf(context),
      taskId,
      entries,
      statusMessage,
      effects,
      context,
      replyEvent,
    );
  }

  /**
   * SEMANTICS §4: the answer a turn left stays the task's artifact once the
   * turn has ended; each turn's answer replaces the one before.
   */
  keepAnswerArtifact(taskId: string, context: ServerCallContext, answer: Artifact): Promise<void> {
    return this.repository.keepAnswerArtifact(this.ownerOf(context), taskId, answer);
  }

  async updateMetadata(
    taskId: string,
    update: (current: TaskMetadata) => TaskMetadata,
    context: ServerCallContext,
  ): Promise<TaskMetadata> {
    const head = await this.update(taskId, context, { metadata: update });
    if (!head) throw new Error(`task ${taskId} no longer exists`);
    return head.metadata ?? {};
  }

  /** Tasks a stop left working or submitted, across callers: for recovery at start. */
  tasksLeftRunning(): Promise<TaskKeys[]> {
    return this.keys.tasksLeftRunning();
  }

  /** Sub-tasks a dead process left SUBMITTED with no message, older than `olderThanMs`. */
  strandedSubtasks(olderThanMs: number): Promise<TaskKeys[]> {
    return this.keys.strandedSubtasks(olderThanMs);
  }

  /**
   * SEMANTICS §10: the caller's most recently active task in `contextId`;
   * `'foreign'` when only other callers' tasks are there; undefined for a
   * context with no tasks.
   */
  async latestTaskInContext(
    contextId: string,
    context: ServerCallContext,
  ): Promise<TaskHead | 'foreign' | undefined> {
    const latest = await this.keys.latestInContext(contextId, this.ownerOf(context));
    return typeof latest === 'object' ? this.loadHead(latest.id, context) : latest;
  }

  /** A message of the task by its id, with its place in the history; undefined when none. */
  findMessage(
    taskId: string,
    messageId: string,
    /** The request's context: on PostgreSQL its head is read in the same round trip, for its next `loadHead`. */
    context?: ServerCallContext,
  ): Promise<{ seq: number; message: Message } | undefined> {
    const asker = context && { owner: this.ownerOf(context), request: context };
    return this.repository.findMessage(taskId, messageId, asker);
  }

  /** The stored reply to the task's command message `commandId`, found by its link; undefined when none. */
  findReply(taskId: string, commandId: string): Promise<Message | undefined> {
    return this.repository.findReply(taskId, commandId);
  }

  /** The message at `seq` in the task's history. */
  messageAt(taskId: string, seq: number): Promise<Message | undefined> {
    return this.repository.messageAt(taskId, seq);
  }

  /** How many more characters of history the caller's new sub-tasks and forks may store. */
  async historyQuotaLeft(context: ServerCallContext): Promise<number> {
    if (!Number.isFinite(this.historyCharsPerOwner)) return Infinity;
    return this.historyCharsPerOwner - (await historyCharsOwned(this.db, this.ownerOf(context)));
  }
}
