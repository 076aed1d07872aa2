import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  ExtensionSupportRequiredError,
  RequestMalformedError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { callerOf } from '../caller-commands.js';
import { parseCommand, type ParsedCommand } from '../parse.js';
import type { CommandRegistry } from '../registry.js';
import { checkArgumentLimit, enforceArgumentLimit } from './argument-limit.js';
import type { CommandTaskStore } from './command-task-store.js';
import { LiveStreams, type StreamRelay } from './live-streams.js';
import { CommandRunner, type CommandOutcome, type ContinueContext } from './run-command.js';
import type { TurnGate } from './turn-gate.js';

export interface CommandsRequestHandlerOptions {
  /** The agent's own request handler, usually the SDK's `DefaultRequestHandler`. */
  inner: A2ARequestHandler;
  registry: CommandRegistry;
  /** Must share its data with the store `inner` uses. */
  store: CommandTaskStore;
  /** Serialises ordinary messages per task; its `track()` must wrap the agent's executor. */
  turns?: TurnGate;
  /** The card served to clients, when it differs from `inner.getAgentCard()`. */
  agentCard?: () => Promise<AgentCard>;
  /**
   * SEMANTICS §9: the caller's own card, for `GetExtendedAgentCard` when the
   * card says `extendedAgentCard` (usually `CommandsCard.forCaller`). Without
   * it, `inner` answers.
   */
  extendedAgentCard?: (context: ServerCallContext) => Promise<AgentCard>;
  onError?: (error: unknown, where: string, context?: ServerCallContext) => void;
  signal?: AbortSignal;
  /**
   * Carries command replies to the streams other processes hold open on the
   * task, when several serve the same store (SEMANTICS §3). What a relay
   * receives goes to `live.deliver`.
   */
  relay?: StreamRelay;
  /**
   * The most characters (code points) a command's arguments may have; a longer
   * one is refused before anything is stored. Unlimited when absent.
   */
  argumentChars?: number;
  /**
   * Called once the command path has decided what a message runs, before it
   * runs or anything is stored: `command` for a command, `turn` for a message
   * that goes to the agent, and `turn` again, with `stagedBy`, for a sub-task's
   * prompt as a command stages it (a turn runs for it). Throw to refuse: the
   * error reaches the caller, except while a command stages a prompt, where a
   * `CommandError` becomes that command's reply. For rate limits that charge
   * what actually runs.
   */
  admit?: (run: RunKind, context: ServerCallContext, stagedBy?: string) => void;
  /**
   * What a command's new task inherits when the message names a `contextId`
   * and no `taskId` (SEMANTICS §10). It may throw (a context of another owner
   * is not found). Without it, such a task starts empty in that context.
   */
  continueContext?: ContinueContext;
  /**
   * Called once each command is answered or refused, with its name and the
   * seconds from its parse to its reply (to the end of its stream, when
   * streamed): for metrics, from the same decision that ran it.
   */
  onCommandDone?: (command: string, outcome: CommandDone, seconds: number) => void;
}

/** What a message runs, as the command path decided it. */
export type RunKind = 'command' | 'turn';

/** How a command ended: its reply, or an error in its place (refused, not found, limited). */
export type CommandDone = 'replied' | 'refused';

/**
 * An `A2ARequestHandler` in front of the agent's own. Commands are answered on
 * their own path and never reach the agent's executor; everything else passes
 * through, one turn per task at a time, with command replies slipped into the
 * streams open on the task.
 */
export class CommandsRequestHandler implements A2ARequestHandler {
  readonly live: LiveStreams;
  private readonly runner: CommandRunner;

  constructor(private readonly options: CommandsRequestHandlerOptions) {
    this.live = new LiveStreams(options.relay);
    checkArgumentLimit(options.argumentChars);
    this.runner = new CommandRunner({
      store: options.store,
      live: this.live,
      // SEMANTICS §7: a sub-task's first prompt is a prompt, even when it starts with '/'.
      // Admitted when the command staged it (`admitPrompt`): not charged twice.
      sendPrompt: (message, context) =>
        this.sendToTurns(requestFor(message, { returnImmediately: true }), context, true),
      admitPrompt:
        options.admit && ((context, command) => options.admit!('turn', context, command)),
      onError: options.onError,
      signal: options.signal,
      continueContext: options.continueContext,
    });
  }

  getAgentCard(): Promise<AgentCard> {
    return this.options.agentCard?.() ?? this.options.inner.getAgentCard();
  }

  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const command = this.commandIn(params, context);
    if (!command) return this.sendToTurns(params, context);
    const started = performance.now();
    try {
      await this.checkCommand(command, context);
      this.options.admit?.('command', context);
      // SEMANTICS §3: the Task with the reply, whatever returnImmediately says.
      const outcome = await this.runner.run(command.message, command.parsed, context);
      this.commandDone(command, 'replied', started);
      return taskWithReply(outcome, params.configuration?.historyLength);
    } catch (error) {
      this.commandDone(command, 'refused', started);
      throw error;
    }
  }

  /** The turn path: what is not a command goes to the wrapped handler, one turn per task. */
  private async sendToTurns(
    params: SendMessageRequest,
    context: ServerCallContext,
    admitted = false,
  ): Promise<Message | Task> {
    const { inner, turns } = this.options;
    if (!admitted) this.options.admit?.('turn', context);
    const taskId = params.message?.taskId;
    if (!turns || !taskId) return inner.sendMessage(params, context);
    return turns.admit(taskId, () => inner.sendMessage(params, context));
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const command = this.commandIn(params, context);
    if (command) {
      yield* this.streamCommand(command, context);
      return;
    }
    const { inner, turns } = this.options;
    this.options.admit?.('turn', context);
    const taskId = params.message?.taskId;
    const stream =
      turns && taskId
        ? turns.admitStream(taskId, () => inner.sendMessageStream(params, context))
        : inner.sendMessageStream(params, context);
    yield* this.live.follow(stream, taskId || undefined);
  }

  resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.live.follow(this.options.inner.resubscribe(params, context), params.id);
  }

  async getAuthenticatedExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    context: ServerCallContext,
  ): Promise<AgentCard> {
    const { extendedAgentCard, inner } = this.options;
    if (!extendedAgentCard) return inner.getAuthenticatedExtendedAgentCard(params, context);
    const card = await this.getAgentCard();
    if (!card.capabilities?.extendedAgentCard) {
      throw new UnsupportedOperationError('Agent does not support authenticated extended card.');
    }
    // As the SDK does: a caller nobody vouched for reads the public card.
    return context.user?.isAuthenticated ? extendedAgentCard(context) : card;
  }

  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.options.inner.getTask(params, context);
  }

  listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.options.inner.listTasks(params, context);
  }

  cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.options.inner.cancelTask(params, context);
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.options.inner.createTaskPushNotificationConfig(params, context);
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.options.inner.getTaskPushNotificationConfig(params, context);
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.options.inner.listTaskPushNotificationConfigs(params, context);
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    return this.options.inner.deleteTaskPushNotificationConfig(params, context);
  }

  private async *streamCommand(
    command: CommandIn,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const started = performance.now();
    let done: CommandDone = 'refused';
    try {
      await this.checkCommand(command, context);
      const card = await this.getAgentCard();
      if (!card.capabilities?.streaming)
        throw new UnsupportedOperationError('Streaming is not supported.');
      this.options.admit?.('command', context);
      const outcome = await this.runner.run(command.message, command.parsed, context);
      // SEMANTICS §3: the task snapshot first, then the reply update, then the end.
      yield { payload: { $case: 'task', value: snapshotBeforeReply(outcome) } };
      yield { payload: { $case: 'statusUpdate', value: outcome.event } };
      done = 'replied';
    } finally {
      this.commandDone(command, done, started);
    }
  }

  private commandDone(command: CommandIn, done: CommandDone, started: number): void {
    this.options.onCommandDone?.(command.parsed.name, done, (performance.now() - started) / 1000);
  }

  /** The command in this request, if it holds one this caller may run. */
  private commandIn(params: SendMessageRequest, context: ServerCallContext): CommandIn | undefined {
    const message = params.message;
    if (!message) return undefined;
    // SEMANTICS §9: a command this caller may not run is, for them, not registered.
    const parsed = parseCommand(message, this.options.registry.forCaller(callerOf(context)));
    return parsed && { message, parsed };
  }

  /** The checks the SDK would make of any message, and the command's own limits. */
  private async checkCommand({ message, parsed }: CommandIn, context: ServerCallContext) {
    if (!message.messageId) throw new RequestMalformedError('message.messageId is required.');
    enforceArgumentLimit(parsed, this.options.argumentChars);
    const card = await this.getAgentCard();
    const requested = new Set(context.requestedExtensions ?? []);
    const missing = (card.capabilities?.extensions ?? [])
      .filter((extension) => extension.required && !requested.has(extension.uri))
      .map((extension) => extension.uri);
    if (missing.length > 0) {
      throw new ExtensionSupportRequiredError(
        `Client must declare support for required extensions: ${missing.join(', ')}`,
      );
    }
  }
}

interface CommandIn {
  message: Message;
  parsed: ParsedCommand;
}

function requestFor(
  message: Message,
  configuration: { returnImmediately: boolean },
): SendMessageRequest {
  return {
    tenant: '',
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: configuration.returnImmediately,
    },
    metadata: undefined,
  };
}

/**
 * The Task a command's SendMessage returns: the reply is its status message,
 * and its history the command message alone, the shape the SDK gives a task
 * answered by a status message. The reply is not carried a second time in the
 * history, and no earlier message is: A2A lets a server return fewer messages
 * than asked, which keeps the answer small and independent of history length.
 * GetTask has the whole history, the reply included.
 */
function taskWithReply(outcome: CommandOutcome, historyLength: number | undefined): Task {
  return {
    ...outcome.head,
    status: outcome.event.status,
    history: historyLength !== undefined && historyLength <= 0 ? [] : [outcome.commandMessage],
    artifacts: [],
  };
}

function snapshotBeforeReply(outcome: CommandOutcome): Task {
  return {
    ...outcome.head,
    status: {
      state: outcome.head.status?.state ?? 0,
      message: undefined,
      timestamp: outcome.head.status?.timestamp,
    },
    history: [outcome.commandMessage],
    artifacts: [],
  };
}
