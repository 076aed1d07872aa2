import type { Message, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskMetadata } from '../command.js';

/** A task without its history and artifacts: what the command path reads. */
export type TaskHead = Omit<Task, 'history' | 'artifacts'>;

/**
 * What a command changes besides its task's history and status message. It is
 * written in the same transaction as the reply, so that a crash never keeps a
 * change without the command and reply that explain it, nor the other way round.
 */
export interface CommandEffects {
  /** A read-modify-write of the task's metadata, applied to what is stored. */
  metadata?: (current: TaskMetadata) => TaskMetadata;
  /** New tasks the command made (sub-tasks, forks), stored whole. */
  subtasks?: Task[];
}

/**
 * What `appendReply` returns: the head after the write, and whether the write
 * itself told the other processes serving the store about the reply.
 */
export type StoredReply = TaskHead & {
  /**
   * True when the write carried `replyEvent` to the other processes (a
   * PostgreSQL NOTIFY sent as the transaction commits, say). The runner's
   * `StreamRelay` is then told so, and does not send it again.
   */
  announced?: boolean;
};

/**
 * What the command path needs from storage. Each method touches one task and
 * must be atomic for it; none may cost O(history) in a store built for scale.
 */
export interface CommandTaskStore {
  /**
   * An id for a new task or context; a random UUID when absent. A store whose
   * indexes are keyed by task id can hand out ids that sort by creation time,
   * so that new rows land together instead of all over its B-trees.
   */
  newId?(): string;
  /** The task's head, or undefined when it does not exist or the caller may not see it. */
  loadHead(taskId: string, context: ServerCallContext): Promise<TaskHead | undefined>;
  /** The whole history, for the few commands that need it. */
  loadHistory(taskId: string, context: ServerCallContext): Promise<Message[]>;
  /**
   * Stores a new task, and the `subtasks` a command made with it, atomically.
   * A task a command creates holds the command and its reply, the reply as
   * `status.message`: a store that answers retries (SEMANTICS §8) keeps the
   * reply linked to the command it answers, as in `appendReply`.
   */
  create(
    task: Task,
    context: ServerCallContext,
    effects?: Pick<CommandEffects, 'subtasks'>,
  ): Promise<void>;
  /**
   * Appends `entries` to the history and makes `statusMessage` the status
   * message, keeping whatever state is stored (SEMANTICS §4), and applies
   * `effects`: all atomically. Returns the head after. `entries` are the
   * command message and its reply, `statusMessage`: a store that answers
   * retries (SEMANTICS §8) keeps the reply linked to the command it answers,
   * rather than relying on where it lands in the history.
   *
   * `replyEvent` is the status update the runner publishes once the write is
   * done (the reply as its message, the state the command saw). A store that
   * keeps `replyEvent.status.timestamp` as the stored status timestamp, and
   * that is shared by several processes, may tell them the event inside the
   * same write and say so with `announced`; it decides alone. A store that
   * ignores the argument keeps working: the relay then sends the event.
   */
  appendReply(
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    context: ServerCallContext,
    effects?: CommandEffects,
    replyEvent?: TaskStatusUpdateEvent,
  ): Promise<StoredReply | undefined>;
  /** Read-modify-write of `Task.metadata`; returns the stored result. */
  updateMetadata(
    taskId: string,
    update: (current: TaskMetadata) => TaskMetadata,
    context: ServerCallContext,
  ): Promise<TaskMetadata>;
}

/** SEMANTICS §3: `Task.metadata` never keeps a reply's tags. */
export function withoutReplyTags(metadata: TaskMetadata | undefined): TaskMetadata {
  if (!metadata || (!('command' in metadata) && !('task_ref' in metadata))) return metadata ?? {};
  const { command: _command, task_ref: _taskRef, ...rest } = metadata;
  return rest;
}
