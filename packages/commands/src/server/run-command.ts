import { TaskState, type Message, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type {
  CommandContext,
  CommandResult,
  SubtaskInit,
  TaskMetadata,
  TaskView,
} from '../command.js';
import { CommandError } from '../errors.js';
import { newMessage, textPart, USER } from '../message.js';
import type { ParsedCommand } from '../parse.js';
import { SUBTASK_METADATA_KEY, type SubtaskLinks } from '../spec.js';
import type { CommandTaskStore, TaskHead } from './command-task-store.js';
import type { LiveStreams } from './live-streams.js';
import { commandReplyEvent, replyMessage } from './reply.js';

export interface CommandOutcome {
  /** The task's head after the reply was stored. */
  head: TaskHead;
  commandMessage: Message;
  reply: Message;
  /** The status update every open stream on the task was given. */
  event: TaskStatusUpdateEvent;
}

export interface CommandRunnerOptions {
  store: CommandTaskStore;
  live: LiveStreams;
  /** Sends a sub-task's first prompt to the agent as an ordinary message. */
  sendPrompt: (message: Message, context: ServerCallContext) => Promise<unknown>;
  /** Told about handler failures and background errors; replies never carry their details. */
  onError?: (error: unknown, where: string) => void;
  /** Aborted when the server shuts down. */
  signal?: AbortSignal;
}

/** The command path: one indexed read, the handler, one atomic append, one publish. */
export class CommandRunner {
  constructor(private readonly options: CommandRunnerOptions) {}

  async run(
    message: Message,
    parsed: ParsedCommand,
    context: ServerCallContext,
  ): Promise<CommandOutcome> {
    const { store, live } = this.options;
    const { head, created } = await this.resolveTask(message, context);
    // Tagged like its reply, so that history readers can leave both out of a model's context (§3).
    const commandMessage: Message = {
      ...message,
      taskId: head.id,
      contextId: head.contextId,
      metadata: { ...message.metadata, command: parsed.name },
    };
    // A task the command creates is stored lazily: in one write with the reply,
    // unless the handler needs it stored first (metadata, sub-tasks, history).
    let creation: Promise<void> | undefined = created ? undefined : Promise.resolve();
    const ensureStored = () =>
      (creation ??= store.create({ ...head, history: [commandMessage], artifacts: [] }, context));
    const result = await this.runHandler(
      parsed,
      commandMessage,
      head,
      created,
      context,
      ensureStored,
    );
    const reply = replyMessage(head, parsed.name, result);
    let stored: TaskHead | undefined;
    if (creation === undefined) {
      stored = {
        ...head,
        status: {
          state: head.status?.state ?? 0,
          message: reply,
          timestamp: new Date().toISOString(),
        },
      };
      await store.create({ ...stored, history: [commandMessage, reply], artifacts: [] }, context);
    } else {
      await creation;
      const entries = created ? [reply] : [commandMessage, reply];
      stored = await store.appendReply(head.id, entries, reply, context);
    }
    if (!stored) throw new TaskNotFoundError(`Task not found: ${head.id}`);
    const event = commandReplyEvent(stored, reply);
    live.publish(head.id, { payload: { $case: 'statusUpdate', value: event } });
    return { head: stored, commandMessage, reply, event };
  }

  private async resolveTask(
    message: Message,
    context: ServerCallContext,
  ): Promise<{ head: TaskHead; created: boolean }> {
    if (message.taskId) {
      if (message.taskId.trim() === '') throw new RequestMalformedError('message.taskId is blank');
      const head = await this.options.store.loadHead(message.taskId, context);
      if (!head) throw new TaskNotFoundError(`Task not found: ${message.taskId}`);
      if (message.contextId && message.contextId !== head.contextId) {
        throw new RequestMalformedError(
          `contextId mismatch: message contextId '${message.contextId}' does not match task '${head.id}' contextId '${head.contextId}'`,
        );
      }
      return { head, created: false };
    }
    // SEMANTICS §4: a command can start a task, which is then idle and waiting for input.
    const head: TaskHead = {
      id: crypto.randomUUID(),
      contextId: message.contextId || crypto.randomUUID(),
      status: {
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      metadata: {},
    };
    return { head, created: true };
  }

  private async runHandler(
    parsed: ParsedCommand,
    message: Message,
    head: TaskHead,
    created: boolean,
    context: ServerCallContext,
    ensureStored: () => Promise<void>,
  ): Promise<CommandResult> {
    const commandContext = this.commandContext(
      parsed,
      message,
      head,
      created,
      context,
      ensureStored,
    );
    try {
      const result = await parsed.command.run(commandContext);
      return typeof result === 'string' ? { text: result } : result;
    } catch (error) {
      if (error instanceof CommandError) return { text: error.message };
      this.options.onError?.(error, `/${parsed.name}`);
      return {
        text: `/${parsed.name} failed unexpectedly. Nothing was changed by this reply; the server log has the details.`,
      };
    }
  }

  private commandContext(
    parsed: ParsedCommand,
    message: Message,
    head: TaskHead,
    created: boolean,
    context: ServerCallContext,
    ensureStored: () => Promise<void>,
  ): CommandContext {
    const { store } = this.options;
    const task = this.view(head, created, context, ensureStored);
    const user = context.user;
    return {
      name: parsed.name,
      args: parsed.args,
      message,
      task,
      caller: { name: user?.userName ?? '', authenticated: user?.isAuthenticated ?? false },
      signal: this.options.signal ?? new AbortController().signal,
      callContext: context,
      updateMetadata: async (update) => {
        await ensureStored();
        return store.updateMetadata(head.id, update, context);
      },
      createSubtask: async (init) => {
        await ensureStored();
        return this.createSubtask(head, init ?? {}, context);
      },
    };
  }

  private view(
    head: TaskHead,
    created: boolean,
    context: ServerCallContext,
    ensureStored: () => Promise<void> = () => Promise.resolve(),
  ): TaskView {
    const store = this.options.store;
    return {
      id: head.id,
      contextId: head.contextId,
      state: head.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
      metadata: head.metadata ?? {},
      created,
      loadHistory: async () => {
        await ensureStored();
        return store.loadHistory(head.id, context);
      },
    };
  }

  /** SEMANTICS §7: same context, linked both ways, readable at once, running on its own. */
  private async createSubtask(
    parent: TaskHead,
    init: SubtaskInit,
    context: ServerCallContext,
  ): Promise<TaskView> {
    const { store } = this.options;
    const id = crypto.randomUUID();
    const links: SubtaskLinks = { parent: parent.id };
    const head: TaskHead = {
      id,
      contextId: parent.contextId,
      status: {
        state: init.prompt ? TaskState.TASK_STATE_SUBMITTED : TaskState.TASK_STATE_INPUT_REQUIRED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      metadata: { ...init.metadata, [SUBTASK_METADATA_KEY]: links },
    };
    const history = (init.history ?? []).map((m) => ({ ...m, taskId: id }));
    await store.create({ ...head, history, artifacts: [] }, context);
    await store.updateMetadata(parent.id, (metadata) => linkSubtask(metadata, id), context);
    if (init.prompt) {
      const prompt = newMessage({
        role: USER,
        parts: [textPart(init.prompt)],
        taskId: id,
        contextId: parent.contextId,
      });
      // Runs on its own: the command's reply does not wait for the sub-task.
      this.options
        .sendPrompt(prompt, context)
        .catch((error: unknown) => this.options.onError?.(error, `sub-task ${id}`));
    }
    return this.view(head, true, context);
  }
}

function linkSubtask(metadata: TaskMetadata, subtaskId: string): TaskMetadata {
  const links = (metadata[SUBTASK_METADATA_KEY] ?? {}) as SubtaskLinks;
  return {
    ...metadata,
    [SUBTASK_METADATA_KEY]: { ...links, subtasks: [...(links.subtasks ?? []), subtaskId] },
  };
}
