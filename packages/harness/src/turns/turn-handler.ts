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
  type TaskStatus,
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
import { hangUpSignal, requestLog } from '../request-scope.js';
import type { HarnessTaskStore } from '../store/index.js';
import { LocalTurns } from './local-turns.js';
import { TaskEvents, type EventSubscription } from './task-events.js';
import { status, statusEvent, taskEvent, TERMINAL_STATES } from './turn-events.js';
import type { Turn } from './turn-queue.js';
import type { SchedulerDeps, TurnScheduler } from './turn-scheduler.js';

export const TURN_FAILED_NOTE =
  'This turn failed on the server before it could finish (the server log says why). Send your message again to retry.';

export interface TurnHandlerOptions {
  store: HarnessTaskStore;
  agentCard: () => Promise<AgentCard>;
  runTurn: (turn: Turn, context: ServerCallContext) => Promise<void>;
  events?: TaskEvents;
  logger: Logger;
  /** Ordinary messages allowed to wait behind a running turn, per task. */
  maxQueuedPerTask?: number;
  /** Where turns wait and run; in this process by default. */
  scheduler?: (deps: SchedulerDeps) => TurnScheduler;
}

interface Accepted {
  head: TaskHead;
  message: Message;
  /** The task's events from before the message was stored: none of its turn's is missed. */
  events: EventSubscription;
  /** Settles, with the status the turn stored, when it has ended, if that is known in this process. */
  done: Promise<TaskStatus | undefined>;
}

/**
 * The harness's request handler for everything that is not a command: each
 * ordinary message becomes a model turn, queued per task. It stores what a
 * turn adds as appends, streams the answer to every open stream of the task,
 * and answers reads from the store.
 */
export class TurnHandler implements A2ARequestHandler {
  readonly events: TaskEvents;
  readonly scheduler: TurnScheduler;

  constructor(private readonly options: TurnHandlerOptions) {
    this.events = options.events ?? new TaskEvents();
    const deps: SchedulerDeps = {
      store: options.store,
      events: this.events,
      run: (turn, context) => this.run(turn, context),
    };
    this.scheduler = options.scheduler?.(deps) ?? new LocalTurns(deps);
  }

  getAgentCard(): Promise<AgentCard> {
    return this.options.agentCard();
  }

  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const { head, message, events, done } = await this.accept(params, context);
    let ended: TaskStatus | undefined;
    try {
      if (params.configuration?.returnImmediately) {
        return { ...head, history: [message], artifacts: [] };
      }
      // The turn may run in another process: its final event says it has ended.
      ended = await Promise.race([done, finalStatusOf(events, message.messageId)]);
    } finally {
      events.close();
    }
    return this.turnResult(head.id, message, context, ended);
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const { head, message, events } = await this.accept(params, context);
    try {
      yield taskEvent({ ...head, history: [message], artifacts: [] });
      for await (const { event, turnId, final } of events) {
        // A stream carries its own turn; SubscribeToTask carries every turn.
        if (turnId !== message.messageId) continue;
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
    const events = this.events.subscribe(taskId, hangUpSignal(context));
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
    await this.scheduler.cancel({ id, contextId: head.contextId }, (alongside) =>
      this.options.store.update(id, context, {
        status: () => status(TaskState.TASK_STATE_CANCELED),
        alongside,
      }),
    );
    return this.getTask({ tenant: '', id }, context);
  }

  /** Shutdown: every turn in flight here ends in input-required with a note, and is stored so. */
  endTurnsInFlight(note: string): Promise<void> {
    return this.scheduler.endTurnsInFlight(note);
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

  private async run(turn: Turn, context: ServerCallContext): Promise<void> {
    try {
      await this.options.runTurn(turn, context);
    } catch (error) {
      requestLog(context, this.options.logger).error(
        { err: error, taskId: turn.taskId },
        'turn failed outside the model call',
      );
      await this.endFailedTurn(turn, context);
    }
  }

  /**
   * A turn that failed outside the model call still ends: in input-required with
   * a note, and with a final event, so that no caller waits for it for good,
   * wherever it waits.
   */
  private async endFailedTurn(turn: Turn, context: ServerCallContext): Promise<void> {
    const { store } = this.options;
    const logger = requestLog(context, this.options.logger);
    try {
      const head = await store.loadHead(turn.taskId, context);
      if (!head) return;
      const message = noteMessage(turn.taskId, head.contextId, 'interrupted', TURN_FAILED_NOTE);
      const ended = await store.update(turn.taskId, context, {
        alongside: turn.fence,
        append: [message],
        status: (current) =>
          current?.state === TaskState.TASK_STATE_WORKING
            ? status(TaskState.TASK_STATE_INPUT_REQUIRED, message)
            : current,
      });
      const final = ended?.status ?? head.status;
      if (!final) return;
      turn.ended = final;
      const event = statusEvent({ id: head.id, contextId: head.contextId }, final);
      this.events.publish(turn.taskId, { event, turnId: turn.turnId, final: true });
    } catch (error) {
      logger.error({ err: error, taskId: turn.taskId }, 'could not end a failed turn');
    }
  }

  /** Checks the message, stores it, and queues its turn. Nothing is stored when a check fails. */
  private async accept(params: SendMessageRequest, context: ServerCallContext): Promise<Accepted> {
    const incoming = checkMessage(params.message);
    const { store } = this.options;
    let head: TaskHead | undefined;
    let message: Message;
    let events: EventSubscription | undefined;
    try {
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
        const busy = await this.scheduler.busy(taskId);
        if (busy && (await this.scheduler.queued(taskId)) >= limit) {
          throw new UnsupportedOperationError(
            `Task ${taskId} already has ${limit} messages waiting for the model, the most that limits.queuedPerTask allows; wait for the current turn to finish.`,
          );
        }
        message = { ...incoming, taskId, contextId: head.contextId };
        const request = { taskId, turnId: message.messageId };
        events = this.events.subscribe(taskId, hangUpSignal(context));
        head = await store.update(taskId, context, {
          // Again where it is written: a CancelTask may have ended the task since.
          refuse: endedError,
          append: [message],
          status: (current) => (busy ? current : status(TaskState.TASK_STATE_WORKING)),
          alongside: this.scheduler.recordWrite(request, context),
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
        events = this.events.subscribe(id, hangUpSignal(context));
        await store.create(
          task,
          context,
          {},
          this.scheduler.recordWrite({ taskId: id, turnId: message.messageId }, context),
        );
        head = { id, contextId, status: task.status, metadata: {} };
      }
    } catch (error) {
      events?.close();
      throw error;
    }
    const done = this.scheduler.start({ taskId: head.id, turnId: message.messageId }, context);
    return { head, message, events, done };
  }

  /**
   * SendMessage's Task: the head as the turn left it, with this turn's exchange as
   * its history. Not the head as it is now: the next turn or a command may have
   * changed its status since.
   */
  private async turnResult(
    taskId: string,
    message: Message,
    context: ServerCallContext,
    ended: TaskStatus | undefined,
  ): Promise<Task> {
    const task = await this.options.store.load(taskId, context, 0);
    if (!task) throw new TaskNotFoundError(`Task not found: ${taskId}`);
    const status = ended ?? task.status;
    const answer = status?.message;
    return { ...task, status, history: answer ? [message, answer] : [message] };
  }
}

/** The status the turn's last event carries, from this process or another. */
async function finalStatusOf(
  events: EventSubscription,
  turnId: string,
): Promise<TaskStatus | undefined> {
  for await (const { event, turnId: id, final } of events) {
    if (id !== turnId || !final) continue;
    return event.payload?.$case === 'statusUpdate' ? event.payload.value.status : undefined;
  }
  return undefined;
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
