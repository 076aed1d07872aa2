import type {
  ListTasksRequest,
  ListTasksResponse,
  Message,
  Task,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import type { TaskMetadata } from '../command.js';
import {
  type CommandEffects,
  type CommandTaskStore,
  type TaskHead,
  withoutReplyTags,
} from './command-task-store.js';
import { KeyedLock } from './keyed-lock.js';

/**
 * Makes any SDK `TaskStore` safe to share between the SDK's turn path and the
 * command path. Give this same object to the SDK's request handler.
 *
 * The SDK saves whole tasks it loaded earlier, without a lock the command path
 * can join, so a command's write could be overwritten by a turn's stale save.
 * Here every write to a task is serialised, and each save is merged with what
 * is stored: history is append-only, metadata keys that commands wrote keep
 * their stored values, and reply tags never stay in `Task.metadata`.
 *
 * Whole-task loads make the command path O(history) on this adapter; a store
 * built for the command path (an indexed head, an append) avoids that.
 */
export class CommandsTaskStore implements TaskStore, CommandTaskStore {
  private readonly lock = new KeyedLock();
  private readonly commandOwnedKeys = new Set<string>();

  constructor(private readonly inner: TaskStore = new InMemoryTaskStore()) {}

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  save(task: Task, context: ServerCallContext): Promise<void> {
    return this.lock.run(task.id, async () => {
      const stored = await this.inner.load(task.id, context);
      await this.inner.save(stored ? this.merge(stored, task) : clean(task), context);
    });
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }

  async loadHead(taskId: string, context: ServerCallContext): Promise<TaskHead | undefined> {
    const task = await this.inner.load(taskId, context);
    return task && headOf(task);
  }

  async loadHistory(taskId: string, context: ServerCallContext): Promise<Message[]> {
    return (await this.inner.load(taskId, context))?.history ?? [];
  }

  create(
    task: Task,
    context: ServerCallContext,
    effects: Pick<CommandEffects, 'subtasks'> = {},
  ): Promise<void> {
    return this.lock.run(task.id, async () => {
      await this.saveSubtasks(effects.subtasks, context);
      await this.inner.save(clean(task), context);
    });
  }

  appendReply(
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    context: ServerCallContext,
    effects: CommandEffects = {},
    replyEvent?: TaskStatusUpdateEvent,
  ): Promise<TaskHead | undefined> {
    return this.lock.run(taskId, async () => {
      const task = await this.inner.load(taskId, context);
      if (!task) return undefined;
      task.history = [...task.history, ...entries];
      task.status = {
        state: task.status?.state ?? 0,
        message: statusMessage,
        // Stored as streams are told it, so that GetTask and the stream agree.
        timestamp: replyEvent?.status?.timestamp || new Date().toISOString(),
      };
      if (effects.metadata) task.metadata = this.applyMetadata(task.metadata, effects.metadata);
      // The SDK's stores have no transactions: sub-tasks go first, so that no stored
      // reply ever names a sub-task that is not there.
      await this.saveSubtasks(effects.subtasks, context);
      await this.inner.save(clean(task), context);
      return headOf(task);
    });
  }

  updateMetadata(
    taskId: string,
    update: (current: TaskMetadata) => TaskMetadata,
    context: ServerCallContext,
  ): Promise<TaskMetadata> {
    return this.lock.run(taskId, async () => {
      const task = await this.inner.load(taskId, context);
      if (!task) throw new Error(`task ${taskId} no longer exists`);
      task.metadata = this.applyMetadata(task.metadata, update);
      await this.inner.save(task, context);
      return task.metadata;
    });
  }

  /** Applies a command's metadata update, remembering which keys commands own. */
  private applyMetadata(
    stored: TaskMetadata | undefined,
    update: (current: TaskMetadata) => TaskMetadata,
  ): TaskMetadata {
    const before = stored ?? {};
    const after = withoutReplyTags(update(structuredClone(before)));
    for (const key of Object.keys(after))
      if (after[key] !== before[key]) this.commandOwnedKeys.add(key);
    for (const key of Object.keys(before)) if (!(key in after)) this.commandOwnedKeys.add(key);
    return after;
  }

  private async saveSubtasks(subtasks: Task[] = [], context: ServerCallContext): Promise<void> {
    for (const subtask of subtasks) await this.inner.save(clean(subtask), context);
  }

  private merge(stored: Task, incoming: Task): Task {
    const known = new Set(stored.history.map((message) => message.messageId));
    const history = [...stored.history, ...incoming.history.filter((m) => !known.has(m.messageId))];
    const metadata = { ...withoutReplyTags(incoming.metadata) };
    const storedMetadata = stored.metadata ?? {};
    for (const key of this.commandOwnedKeys) {
      if (key in storedMetadata) metadata[key] = storedMetadata[key];
      else delete metadata[key];
    }
    return { ...incoming, history, metadata };
  }
}

function clean(task: Task): Task {
  return { ...task, metadata: withoutReplyTags(task.metadata) };
}

function headOf(task: Task): TaskHead {
  const { history: _history, artifacts: _artifacts, ...head } = task;
  return head;
}
