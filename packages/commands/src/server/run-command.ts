import { TaskState, type Message, type Task, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type {
  CommandContext,
  CommandResult,
  SubtaskInit,
  TaskMetadata,
  TaskView,
} from '../command.js';
import { callerOf } from '../caller-commands.js';
import { CommandError } from '../errors.js';
import { newMessage, textPart, USER } from '../message.js';
import type { ParsedCommand } from '../parse.js';
import { hintRequiresArguments } from '../hint.js';
import {
  REPLY_ERROR_CODES,
  SUBTASK_METADATA_KEY,
  type CommandRefusalData,
  type SubtaskLinks,
} from '../spec.js';
import { withoutReplyTags, type CommandTaskStore, type TaskHead } from './command-task-store.js';
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
  /**
   * Told about handler failures and background errors, with the call they
   * happened in (for its logger); replies never carry their details.
   */
  onError?: (error: unknown, where: string, context?: ServerCallContext) => void;
  /** Aborted when the server shuts down. */
  signal?: AbortSignal;
  /**
   * Called as a command stages a sub-task with a prompt, before anything is
   * stored: a turn will run for it. What it throws, the handler gets from
   * `createSubtask` (a `CommandError` becomes the command's reply).
   */
  admitPrompt?: (context: ServerCallContext, command: string) => void;
  /** What a new task in an existing context inherits (SEMANTICS §10). */
  continueContext?: ContinueContext;
}

/** What a new task in an existing context starts with: metadata, and history before its first message. */
export interface ContextSeed {
  metadata?: TaskMetadata;
  history?: Message[];
}

/** Finds what the new task `taskId` in `contextId` inherits; undefined for a context with no tasks. */
export type ContinueContext = (
  contextId: string,
  taskId: string,
  context: ServerCallContext,
) => Promise<ContextSeed | undefined>;

/** The command path: one indexed read, the handler, one atomic write of all it did, one publish. */
export class CommandRunner {
  constructor(private readonly options: CommandRunnerOptions) {}

  async run(
    message: Message,
    parsed: ParsedCommand,
    context: ServerCallContext,
  ): Promise<CommandOutcome> {
    const { store, live } = this.options;
    const { head, created, inherited } = await this.resolveTask(message, context);
    // Tagged like its reply, so that history readers can leave both out of a model's context (§3).
    const commandMessage: Message = {
      ...message,
      taskId: head.id,
      contextId: head.contextId,
      metadata: { ...message.metadata, command: parsed.name },
    };
    const staged: StagedEffects = { subtasks: [], prompts: [] };
    const result = await this.runHandler(
      parsed,
      commandMessage,
      head,
      created,
      context,
      staged,
      inherited,
    );
    const reply = replyMessage(head, parsed.name, result);
    const effects = { metadata: staged.metadata, subtasks: staged.subtasks };
    // One write: the command, its reply and all it changed are stored together or not at all.
    let stored: TaskHead | undefined;
    let replyEvent: TaskStatusUpdateEvent | undefined;
    let announced = false;
    if (created) {
      // Nobody else knows this task yet, so its metadata can be settled before the write.
      stored = {
        ...head,
        metadata: withoutReplyTags(
          staged.metadata ? staged.metadata(structuredClone(head.metadata ?? {})) : head.metadata,
        ),
        status: {
          state: head.status?.state ?? 0,
          message: reply,
          timestamp: new Date().toISOString(),
        },
      };
      await store.create(
        { ...stored, history: [...inherited, commandMessage, reply], artifacts: [] },
        context,
        effects,
      );
    } else {
      // SEMANTICS §3: the event streams get, handed to the store with the write, which
      // may tell it to the other processes itself.
      replyEvent = commandReplyEvent(
        {
          ...head,
          status: {
            state: head.status?.state ?? 0,
            message: reply,
            timestamp: new Date().toISOString(),
          },
        },
        reply,
      );
      const appended = await store.appendReply(
        head.id,
        [commandMessage, reply],
        reply,
        context,
        effects,
        replyEvent,
      );
      if (appended) {
        const { announced: toldByStore, ...after } = appended;
        stored = after;
        announced = toldByStore === true;
      }
    }
    if (!stored) throw new TaskNotFoundError(`Task not found: ${head.id}`);
    for (const prompt of staged.prompts) {
      // Runs on its own: the command's reply does not wait for the sub-task.
      this.options
        .sendPrompt(prompt, context)
        .catch((error: unknown) =>
          this.options.onError?.(error, `sub-task ${prompt.taskId}`, context),
        );
    }
    // SEMANTICS §3: the reply carries the state the task had when the command ran,
    // even if the command itself (a stop, say) made the task move on since.
    const answered: TaskHead = stored.status
      ? { ...stored, status: { ...stored.status, state: head.status?.state ?? 0 } }
      : stored;
    // What the store told the others is what local streams get too.
    const event = announced && replyEvent ? replyEvent : commandReplyEvent(answered, reply);
    // A task this command created has no stream anywhere yet: its id was never given out.
    if (!created) {
      const { relayed } = live.publish(
        head.id,
        { payload: { $case: 'statusUpdate', value: event } },
        { byStore: announced },
      );
      if (relayed) await relayed;
    }
    return { head: answered, commandMessage, reply, event };
  }

  private newId(): string {
    return this.options.store.newId?.() ?? crypto.randomUUID();
  }

  private async resolveTask(
    message: Message,
    context: ServerCallContext,
  ): Promise<{ head: TaskHead; created: boolean; inherited: Message[] }> {
    if (message.taskId) {
      if (message.taskId.trim() === '') throw new RequestMalformedError('message.taskId is blank');
      const head = await this.options.store.loadHead(message.taskId, context);
      if (!head) throw new TaskNotFoundError(`Task not found: ${message.taskId}`);
      if (message.contextId && message.contextId !== head.contextId) {
        throw new RequestMalformedError(
          `contextId mismatch: message contextId '${message.contextId}' does not match task '${head.id}' contextId '${head.contextId}'`,
        );
      }
      return { head, created: false, inherited: [] };
    }
    // SEMANTICS §4: a command can start a task, which is then idle and waiting for input.
    const id = this.newId();
    // SEMANTICS §10: in an existing context, it continues that context's conversation.
    const seed = message.contextId
      ? await this.options.continueContext?.(message.contextId, id, context)
      : undefined;
    const head: TaskHead = {
      id,
      contextId: message.contextId || this.newId(),
      status: {
        state: TaskState.TASK_STATE_INPUT_REQUIRED,
        message: undefined,
        timestamp: new Date().toISOString(),
      },
      metadata: seed?.metadata ?? {},
    };
    return { head, created: true, inherited: seed?.history ?? [] };
  }

  private async runHandler(
    parsed: ParsedCommand,
    message: Message,
    head: TaskHead,
    created: boolean,
    context: ServerCallContext,
    staged: StagedEffects,
    inherited: Message[],
  ): Promise<CommandResult> {
    const { name, command } = parsed;
    // A declared required argument is a promise to the handler: it never runs without one.
    if (parsed.args === '' && hintRequiresArguments(command.argument_hint)) {
      return refusal(
        REPLY_ERROR_CODES.missingArgument,
        `/${name} needs an argument: type /${name} ${command.argument_hint}.`,
      );
    }
    const commandContext = this.commandContext(
      parsed,
      message,
      head,
      created,
      context,
      staged,
      inherited,
    );
    try {
      const returned = await command.run(commandContext);
      return settleTaskRef(typeof returned === 'string' ? { text: returned } : returned, staged);
    } catch (error) {
      // A handler that throws changes nothing, whatever it staged before.
      Object.assign(staged, { metadata: undefined, subtasks: [], prompts: [] });
      if (error instanceof CommandError) return refusal(error.code, error.message);
      this.options.onError?.(error, `/${name}`, context);
      return refusal(
        REPLY_ERROR_CODES.commandFailed,
        `/${name} failed unexpectedly. Nothing was changed by this reply; the server log has the details.`,
      );
    }
  }

  private commandContext(
    parsed: ParsedCommand,
    message: Message,
    head: TaskHead,
    created: boolean,
    context: ServerCallContext,
    staged: StagedEffects,
    inherited: Message[],
  ): CommandContext {
    // A task this command creates is not stored yet: its history is what it inherited, then the command.
    const task = this.view(head, created, context, created ? [...inherited, message] : undefined);
    return {
      name: parsed.name,
      args: parsed.args,
      message,
      task,
      caller: callerOf(context),
      signal: this.options.signal ?? new AbortController().signal,
      callContext: context,
      updateMetadata: async (update) => {
        stageMetadata(staged, update);
        return staged.metadata!(structuredClone(head.metadata ?? {}));
      },
      createSubtask: async (init) =>
        this.stageSubtask(head, init ?? {}, context, staged, parsed.name),
    };
  }

  /** A snapshot of the task; `unstoredHistory` is its history when it is not stored yet. */
  private view(
    head: TaskHead,
    created: boolean,
    context: ServerCallContext,
    unstoredHistory?: Message[],
  ): TaskView {
    const store = this.options.store;
    return {
      id: head.id,
      contextId: head.contextId,
      state: head.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
      metadata: head.metadata ?? {},
      created,
      loadHistory: async () =>
        unstoredHistory ? structuredClone(unstoredHistory) : store.loadHistory(head.id, context),
    };
  }

  /**
   * SEMANTICS §7: same context, linked both ways, readable at once, running on its own.
   * It is stored with the reply; its first prompt is sent once both are stored.
   */
  private stageSubtask(
    parent: TaskHead,
    init: SubtaskInit,
    context: ServerCallContext,
    staged: StagedEffects,
    command: string,
  ): TaskView {
    if (init.prompt) this.options.admitPrompt?.(context, command);
    const id = this.newId();
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
    staged.subtasks.push({ ...head, history, artifacts: [] });
    stageMetadata(staged, (metadata) => linkSubtask(metadata, id));
    if (init.prompt) {
      staged.prompts.push(
        newMessage({
          role: USER,
          parts: [textPart(init.prompt)],
          taskId: id,
          contextId: parent.contextId,
        }),
      );
    }
    return this.view(head, true, context, history);
  }
}

/**
 * SEMANTICS §3: `task_ref` names a sub-task this command created. With exactly
 * one, a handler that forgot it gets it filled in; any other id is a handler bug.
 */
function settleTaskRef(result: CommandResult, staged: StagedEffects): CommandResult {
  const created = staged.subtasks.map((task) => task.id);
  if (result.task_ref === undefined) {
    return created.length === 1 ? { ...result, task_ref: created[0] } : result;
  }
  if (!created.includes(result.task_ref)) {
    throw new Error(
      `task_ref '${result.task_ref}' is not a sub-task this command created (it created ${created.length === 0 ? 'none' : created.join(', ')})`,
    );
  }
  return result;
}

/** A refusal: the text a person reads, and the same as `{"error": {code, message}}` data. */
function refusal(code: string, text: string): CommandResult {
  const data: CommandRefusalData = { error: { code, message: text } };
  return { text, data };
}

/** What a handler changed, held back so that it is stored in one write with the reply. */
interface StagedEffects {
  metadata?: (current: TaskMetadata) => TaskMetadata;
  subtasks: Task[];
  /** Sub-tasks' first prompts, sent once the sub-tasks are stored. */
  prompts: Message[];
}

function stageMetadata(staged: StagedEffects, update: (current: TaskMetadata) => TaskMetadata) {
  const before = staged.metadata;
  staged.metadata = before ? (current) => update(before(current)) : update;
}

function linkSubtask(metadata: TaskMetadata, subtaskId: string): TaskMetadata {
  const links = (metadata[SUBTASK_METADATA_KEY] ?? {}) as SubtaskLinks;
  return {
    ...metadata,
    [SUBTASK_METADATA_KEY]: { ...links, subtasks: [...(links.subtasks ?? []), subtaskId] },
  };
}
