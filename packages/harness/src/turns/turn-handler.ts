import {
  Role,
  TaskState,
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetExtendedAgentCardRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import {
  ExtendedAgentCardNotConfiguredError,
  PushNotificationNotSupportedError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskHead } from 'a2a-commands/server';
import type { Logger } from 'pino';
import { noteMessage } from '../notes.js';
import type { HarnessTaskStore } from '../store/index.js';
import { TaskEvents } from './task-events.js';
import { status, statusEvent, taskEvent, TERMINAL_STATES } from './turn-events.js';
import { newTurn, TurnQueue, type Turn } from './turn-queue.js';

export interface TurnHandlerOptions {
  store: HarnessTaskStore;
  agentCard: () => Promise<AgentCard>;
  runTurn: (turn: Turn, context: ServerCallContext) => Promise<void>;
  events?: TaskEvents;
  logger: Logger;
  /** Ordinary messages allowed to wait behind a running turn, per task. */
  maxQueuedPerTask?: number;
}

interface Accepted {
  head: TaskHead;
  message: Message;
  turn: Turn;
}

/**
 * The harness's request handler for everything that is not a command: each
 * ordinary message becomes a model turn, queued per task. It stores what a
 * turn adds as appends, streams the answer to every open stream of the task,
 * and answers reads from the store.
 */
export class TurnHandler implements A2ARequestHandler {
  readonly events: TaskEvents;
  readonly queue: TurnQueue;
  private readonly contexts = new WeakMap<Turn, ServerCallContext>();

  constructor(private readonly options: TurnHandlerOptions) {
    this.events = options.events ?? new TaskEvents();
    this.queue = new TurnQueue((turn) => this.run(turn));
  }

  getAgentCard(): Promise<AgentCard> {
    return this.options.agentCard();
  }

  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const { head, message, turn } = await this.accept(params, context);
    if (params.configuration?.returnImmediately) {
      return { ...head, history: [message], artifacts: [] };
    }
    await turn.done;
    return this.turnResult(turn, message, context);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const subscription = { current: undefined as ReturnType<TaskEvents['subscribe']> | undefined };
    const { head, message, turn } = await this.accept(params, context, subscription);
    const events = subscription.current!;
    try {
      yield taskEvent({ ...head, history: [message], artifacts: [] });
      for await (const { event, turnId, final } of events) {
        // A stream carries its own turn; SubscribeToTask carries every turn.
        if (turnId !== turn.turnId) continue;
        yield event;
        if (final) return;
      }
    } finally {
      events.close();
    }
  }

  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const taskId = requireTaskId(params.id);
    const events = this.events.subscribe(taskId);
    try {
      const task = await this.options.store.load(taskId, context, 0);
      if (!task) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      if (TERMINAL_STATES.has(task.status?.state ?? 0)) {
        throw new UnsupportedOperationError(
          `Task ${taskId} has ended and cannot be subscribed to.`,
        );
      }
      yield taskEvent(task);
      for await (const { event } of events) {
        yield event;
        const update = event.payload?.$case === 'statusUpdate' ? event.payload.value : undefined;
        if (update && TERMINAL_STATES.has(update.status?.state ?? 0)) return;
      }
    } finally {
      events.close();
    }
  }

  async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    const id = requireTaskId(params.id);
    const task = await this.options.store.load(id, context, historyLengthOf(params.historyLength));
    if (!task) throw new TaskNotFoundError(`Task not found: ${id}`);
    return task;
  }

  async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? 50;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      throw new RequestMalformedError('pageSize must be between 1 and 100');
    }
    const historyLength = historyLengthOf(params.historyLength) ?? 0;
    if (params.statusTimestampAfter && Number.isNaN(Date.parse(params.statusTimestampAfter))) {
      throw new RequestMalformedError('statusTimestampAfter must be an ISO 8601 timestamp');
    }
    const response = await this.options.store.list({ ...params, pageSize }, context);
    if (historyLength > 0) {
      for (const task of response.tasks) {
        task.history = await this.options.store.loadHistory(task.id, context, {
          last: historyLength,
        });
      }
    }
    return response;
  }

  /** CancelTask aborts the model call in flight, drops the queued turns, and cancels the task. */
  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const id = requireTaskId(params.id);
    const head = await this.options.store.loadHead(id, context);
    if (!head) throw new TaskNotFoundError(`Task not found: ${id}`);
    const state = head.status?.state ?? 0;
    if (state === TaskState.TASK_STATE_CANCELED) return this.getTask({ tenant: '', id }, context);
    if (TERMINAL_STATES.has(state))
      throw new TaskNotCancelableError(`Task ${id} has already ended.`);
    const { running, waiting } = this.queue.drain(id);
    // Stored before the aborts: whoever a turn's end wakes then reads the task canceled.
    const ended = await this.options.store.update(id, context, {
      status: () => status(TaskState.TASK_STATE_CANCELED),
    });
    running?.abort.abort(new Error('canceled'));
    for (const turn of waiting) turn.abort.abort(new Error('canceled'));
    const finalEvent = statusEvent({ id, contextId: head.contextId }, ended!.status!);
    this.events.publish(id, { event: finalEvent, turnId: running?.turnId ?? '', final: true });
    for (const turn of waiting) {
      this.events.publish(id, { event: finalEvent, turnId: turn.turnId, final: true });
      turn.finish();
    }
    return this.getTask({ tenant: '', id }, context);
  }

  /** Shutdown: every turn in flight ends in input-required with a note, and is stored so. */
  async endTurnsInFlight(note: string): Promise<void> {
    await Promise.all(
      this.queue.runningTurns().map(async (turn) => {
        turn.abort.abort(new Error('shutdown'));
        const { waiting } = this.queue.drain(turn.taskId);
        const context = this.contexts.get(turn);
        const head = context && (await this.options.store.loadHead(turn.taskId, context));
        const message = head && noteMessage(turn.taskId, head.contextId, 'interrupted', note);
        const ended =
          head &&
          message &&
          (await this.options.store.update(turn.taskId, context, {
            append: [message],
            status: () => status(TaskState.TASK_STATE_INPUT_REQUIRED, message),
          }));
        // One note and one write per task; every stream waiting on it, running or queued, ends.
        for (const each of [turn, ...waiting]) {
          if (ended) {
            const event = statusEvent(
              { id: turn.taskId, contextId: head.contextId },
              ended.status!,
            );
            this.events.publish(turn.taskId, { event, turnId: each.turnId, final: true });
          }
          each.finish();
        }
      }),
    );
  }

  getAuthenticatedExtendedAgentCard(
    _params: GetExtendedAgentCardRequest,
    _context: ServerCallContext,
  ): Promise<AgentCard> {
    return Promise.reject(
      new ExtendedAgentCardNotConfiguredError('This agent has no extended card.'),
    );
  }

  createTaskPushNotificationConfig(): Promise<TaskPushNotificationConfig> {
    return Promise.reject(
      new PushNotificationNotSupportedError('Push notifications are not supported.'),
    );
  }

  getTaskPushNotificationConfig(
    _params: GetTaskPushNotificationConfigRequest,
  ): Promise<TaskPushNotificationConfig> {
    return Promise.reject(
      new PushNotificationNotSupportedError('Push notifications are not supported.'),
    );
  }

  listTaskPushNotificationConfigs(
    _params: ListTaskPushNotificationConfigsRequest,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return Promise.reject(
      new PushNotificationNotSupportedError('Push notifications are not supported.'),
    );
  }

  deleteTaskPushNotificationConfig(
    _params: DeleteTaskPushNotificationConfigRequest,
  ): Promise<void> {
    return Promise.reject(
      new PushNotificationNotSupportedError('Push notifications are not supported.'),
    );
  }

  private async run(turn: Turn): Promise<void> {
    const context = this.contexts.get(turn);
    if (!context) return;
    try {
      await this.options.runTurn(turn, context);
    } catch (error) {
      this.options.logger.error(
        { err: error, taskId: turn.taskId },
        'turn failed outside the model call',
      );
    }
  }

  /** Checks the message, stores it, and queues its turn. Nothing is stored when a check fails. */
  private async accept(
    params: SendMessageRequest,
    context: ServerCallContext,
    subscription?: { current?: ReturnType<TaskEvents['subscribe']> },
  ): Promise<Accepted> {
    const incoming = checkMessage(params.message);
    const { store } = this.options;
    let head: TaskHead | undefined;
    let message: Message;
    if (incoming.taskId) {
      const taskId = requireTaskId(incoming.taskId);
      head = await store.loadHead(taskId, context);
      if (!head) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      const ended = endedError(head);
      if (ended) throw ended;
      if (incoming.contextId && incoming.contextId !== head.contextId) {
        throw new RequestMalformedError(
          `contextId mismatch: message contextId '${incoming.contextId}' does not match task '${taskId}' contextId '${head.contextId}'`,
        );
      }
      const limit = this.options.maxQueuedPerTask ?? Infinity;
      if (this.queue.busy(taskId) && this.queue.queued(taskId) >= limit) {
        throw new UnsupportedOperationError(
          `Task ${taskId} already has ${limit} messages waiting for the model, the most that limits.queuedPerTask allows; wait for the current turn to finish.`,
        );
      }
      message = { ...incoming, taskId, contextId: head.contextId };
      const busy = this.queue.busy(taskId);
      head = await store.update(taskId, context, {
        // Again where it is written: a CancelTask may have ended the task since.
        refuse: endedError,
        append: [message],
        status: (current) => (busy ? current : status(TaskState.TASK_STATE_WORKING)),
      });
      if (!head) throw new TaskNotFoundError(`Task not found: ${taskId}`);
    } else {
      const id = crypto.randomUUID();
      const contextId = incoming.contextId || crypto.randomUUID();
      message = { ...incoming, taskId: id, contextId };
      const task: Task = {
        id,
        contextId,
        status: status(TaskState.TASK_STATE_WORKING),
        history: [message],
        artifacts: [],
        metadata: {},
      };
      await store.create(task, context);
      head = { id, contextId, status: task.status, metadata: {} };
    }
    const turn = newTurn(head.id, message.messageId);
    this.contexts.set(turn, context);
    if (subscription) subscription.current = this.events.subscribe(head.id);
    this.queue.enqueue(turn);
    return { head, message, turn };
  }

  /**
   * SendMessage's Task: the head as the turn left it, with this turn's exchange as
   * its history. Not the head as it is now: the next turn or a command may have
   * changed its status since.
   */
  private async turnResult(
    turn: Turn,
    message: Message,
    context: ServerCallContext,
  ): Promise<Task> {
    const task = await this.options.store.load(turn.taskId, context, 0);
    if (!task) throw new TaskNotFoundError(`Task not found: ${turn.taskId}`);
    const status = turn.ended ?? task.status;
    const answer = status?.message;
    return { ...task, status, history: answer ? [message, answer] : [message] };
  }
}

/**
 * A historyLength the store can use: a whole number, 0 or more. The SDK passes
 * JSON-RPC's through as any number, and the database refuses 1.5 or 1e308.
 */
function historyLengthOf(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) {
    throw new RequestMalformedError('historyLength must be a whole number, 0 or more');
  }
  return Math.min(value, Number.MAX_SAFE_INTEGER);
}

/** Ordinary messages are refused once a task has ended: on this harness CancelTask is for good. */
function endedError(head: TaskHead): UnsupportedOperationError | undefined {
  const state = head.status?.state ?? 0;
  if (!TERMINAL_STATES.has(state)) return undefined;
  return new UnsupportedOperationError(
    `Task ${head.id} has ended (${TaskState[state]}); start a new task to go on.`,
  );
}

function requireTaskId(id: string | undefined): string {
  if (!id || id.trim() === '') throw new RequestMalformedError('a task id is required');
  return id;
}

/** The checks the SDK skips: a message needs an id, a user role and at least one part. */
function checkMessage(message: Message | undefined): Message {
  if (!message) throw new RequestMalformedError('params.message is required');
  if (!message.messageId) throw new RequestMalformedError('message.messageId is required');
  if (message.role !== Role.ROLE_USER)
    throw new RequestMalformedError('message.role must be ROLE_USER');
  if (message.parts.length === 0)
    throw new RequestMalformedError('message.parts must not be empty');
  return message;
}
