import type {
  Artifact,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  Task,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import type { CommandEffects, StoredReply, TaskHead } from 'a2a-commands/server';
import type { Owner } from './owner.js';
import type { ReplyNotifier } from './reply-notices.js';
import type { TaskChange, TurnRowWrite } from './task-change.js';

/**
 * The request a read or write is made for (its call context). A repository
 * may remember what the request read, for the same request's write: on
 * PostgreSQL the head read with the retry check, and the metadata a command's
 * change is computed from.
 */
export type RequestKey = object;

/** Which messages of a history to read: from a position, and/or the last few. */
export interface HistoryRange {
  from?: number;
  last?: number;
}

/**
 * One per database (`sqlite/`, `postgres/`): every change to a task's head and
 * history, each one transaction, in the order they reach the task. The command
 * path, the turn path and the SDK's save all write through these functions;
 * `HarnessTaskStore` only adapts them to the SDK's and the library's
 * interfaces. Every change is scoped by `Owner`, decided once per request
 * (`owner.ts`).
 */
export interface TaskRepository {
  // Reads of one task.
  head(owner: Owner, taskId: string, request?: RequestKey): Promise<TaskHead | undefined>;
  /** GetTask's read: the head with its artifacts, history left empty. */
  task(owner: Owner, taskId: string): Promise<Task | undefined>;
  /**
   * SEMANTICS §8's check of a message id. Asked for a request, PostgreSQL reads
   * the owner's head of the task in the same query, for the request's next `head`.
   */
  findMessage(
    taskId: string,
    messageId: string,
    asker?: { owner: Owner; request: RequestKey },
  ): Promise<{ seq: number; message: Message } | undefined>;
  /** The stored reply to the task's command `commandId`, found by its link. */
  findReply(taskId: string, commandId: string): Promise<Message | undefined>;
  history(taskId: string, range: HistoryRange): Promise<Message[]>;
  /** Where the task's next message will go. */
  historyEnd(taskId: string): Promise<number>;
  messageAt(taskId: string, seq: number): Promise<Message | undefined>;

  /** ListTasks, as the SDK's database store answers it (`task-list.ts`). */
  list(owner: Owner, params: ListTasksRequest): Promise<ListTasksResponse>;

  // Changes: each one transaction.
  /**
   * New tasks (a command's task and its sub-tasks, a turn's task); `turnRow`
   * is written with them, for the last. Sub-tasks with history must fit the
   * owner's history quota (`HistoryQuotaError`).
   */
  create(owner: Owner, tasks: Task[], turnRow?: TurnRowWrite): Promise<void>;
  /**
   * `change` applied atomically; undefined when the owner has no such task.
   * `request` may start from the head that request last read or wrote.
   */
  update(
    owner: Owner,
    taskId: string,
    change: TaskChange,
    request?: RequestKey,
  ): Promise<TaskHead | undefined>;
  /**
   * A command's entries, its reply as the status message (state kept), its
   * effects. `replyEvent` is what the runner will publish: a repository that
   * takes it stores its timestamp, and may tell it to the other instances in
   * the same write, saying so with `announced` (`CommandTaskStore.appendReply`).
   */
  appendReply(
    owner: Owner,
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    effects: CommandEffects,
    request?: RequestKey,
    replyEvent?: TaskStatusUpdateEvent,
  ): Promise<StoredReply | undefined>;
  /** The SDK's save: the head replaced, messages not yet stored appended. */
  save(owner: Owner, task: Task): Promise<void>;
  /** A turn's answer as the task's one artifact (SEMANTICS §4). */
  keepAnswerArtifact(owner: Owner, taskId: string, answer: Artifact): Promise<void>;

  /** PostgreSQL shared by instances: replies told to the others inside their writes. */
  notifyRepliesWith?(notifier: ReplyNotifier): void;
}
