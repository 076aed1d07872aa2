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
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { parseCommand, type CommandRegistry } from 'a2a-commands';
import { secondsSince, type HarnessMetrics } from './harness-metrics.js';

/**
 * An `A2ARequestHandler` around the commands handler that times command
 * requests by name and outcome, and counts the SSE streams open through it.
 * A message is a command when the library's parser says so, as the commands
 * handler itself decides (SEMANTICS §2).
 */
export class MeteredRequestHandler implements A2ARequestHandler {
  private streams = 0;

  constructor(
    private readonly inner: A2ARequestHandler,
    private readonly registry: Pick<CommandRegistry, 'get'>,
    private readonly metrics: HarnessMetrics,
  ) {}

  /** SSE streams open now through this handler. */
  get openStreams(): number {
    return this.streams;
  }

  getAgentCard(): Promise<AgentCard> {
    return this.inner.getAgentCard();
  }

  async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const name = this.commandName(params);
    if (name === undefined) return this.inner.sendMessage(params, context);
    const start = process.hrtime.bigint();
    try {
      const result = await this.inner.sendMessage(params, context);
      this.metrics.commandRan(name, 'replied', secondsSince(start));
      return result;
    } catch (error) {
      this.metrics.commandRan(name, 'refused', secondsSince(start));
      throw error;
    }
  }

  async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const name = this.commandName(params);
    const start = process.hrtime.bigint();
    let outcome: 'replied' | 'refused' = 'refused';
    this.streams++;
    try {
      yield* this.inner.sendMessageStream(params, context);
      outcome = 'replied';
    } finally {
      this.streams--;
      if (name !== undefined) this.metrics.commandRan(name, outcome, secondsSince(start));
    }
  }

  async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    this.streams++;
    try {
      yield* this.inner.resubscribe(params, context);
    } finally {
      this.streams--;
    }
  }

  getAuthenticatedExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    context: ServerCallContext,
  ): Promise<AgentCard> {
    return this.inner.getAuthenticatedExtendedAgentCard(params, context);
  }

  getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.inner.getTask(params, context);
  }

  listTasks(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.listTasks(params, context);
  }

  cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    return this.inner.cancelTask(params, context);
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.inner.createTaskPushNotificationConfig(params, context);
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.inner.getTaskPushNotificationConfig(params, context);
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.inner.listTaskPushNotificationConfigs(params, context);
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    return this.inner.deleteTaskPushNotificationConfig(params, context);
  }

  private commandName(params: SendMessageRequest): string | undefined {
    return params.message ? parseCommand(params.message, this.registry)?.name : undefined;
  }
}
