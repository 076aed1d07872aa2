import {
  TaskState,
  type AgentCard,
  type Artifact,
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
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { hangUpSignal } from '../request-scope.js';
import type { HarnessTaskStore } from '../store/index.js';
import type { EventSubscription } from './task-events.js';
import { ANSWER_ARTIFACT_NAME, taskEvent, TERMINAL_STATES } from './turn-events.js';
import { requireTaskId, type TurnLifecycle } from './turn-lifecycle.js';

export interface TurnHandlerOptions {
  store: HarnessTaskStore;
  agentCard: () => Promise<AgentCard>;
  turns: TurnLifecycle;
}

/**
 * The harness's A2A request handler for everything that is not a command:
 * messages go to the turn lifecycle, and reads are answered from the store,
 * with the answer a running turn has streamed so far (SEMANTICS §4).
 */
export class TurnHandler implements A2ARequestHandler {
  constructor(private readonly options: TurnHandlerOptions) {}

  private get events() {
    return this.options.turns.events;
  }

  getAgentCard(): Promise<AgentCard> {
    return this.options.agentCard();
  }

  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const { head, message, events, done } = await this.options.turns.accept(params, context);
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
    const { head, message, events } = await this.options.turns.accept(params, context);
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
      yield taskEvent(withAnswerSoFar(task, events.answerSoFar));
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
    return withAnswerSoFar(task, this.events.answerSoFar(id));
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
    // The store reads each listed task's last `historyLength` messages with the page.
    return this.options.store.list({ ...params, pageSize, historyLength }, context);
  }

  /** CancelTask aborts the model call in flight, drops the queued turns, and cancels the task. */
  async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const id = requireTaskId(params.id);
    await this.options.turns.cancel(id, context);
    return this.getTask({ tenant: '', id }, context);
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

/**
 * A task as stored, with the answer its running turn has streamed so far, if
 * any, in place of the answer the turn before left (SEMANTICS §4).
 */
function withAnswerSoFar(task: Task, answer: Artifact | undefined): Task {
  if (!answer || task.status?.state !== TaskState.TASK_STATE_WORKING) return task;
  const others = task.artifacts.filter((artifact) => artifact.name !== ANSWER_ARTIFACT_NAME);
  return { ...task, artifacts: [...others, answer] };
}
