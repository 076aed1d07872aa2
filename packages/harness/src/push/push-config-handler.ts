import type {
  DeleteTaskPushNotificationConfigRequest,
  GetTaskPushNotificationConfigRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import { taskIdOfEvent } from 'a2a-commands/server/internal';
import {
  RequestMalformedError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { ForwardingHandler } from '../serve/forwarding-handler.js';
import type { PushConfigStore } from '../store/push-configs.js';
import type { InlineConfigs } from './inline-configs.js';
import type { PushOptions } from './push-options.js';
import { checkWebhookUrl, WebhookRefusedError, type ResolveHost } from './webhook-url.js';

/** The longest config id and webhook URL a client may send. */
const MAX_ID_CHARS = 256;
const MAX_URL_CHARS = 2048;
/** What a header value may hold: visible ASCII, spaces and tabs (no line breaks). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/** An HTTP authentication scheme is a token (RFC 9110). */
const SCHEME_TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

export interface PushConfigHandlerDeps {
  configs: PushConfigStore;
  inline: InlineConfigs;
  /** The caller's own task, or undefined: a task of another principal is not found. */
  loadHead: (taskId: string, context: ServerCallContext) => Promise<unknown>;
  options: PushOptions;
  resolve?: ResolveHost;
}

/**
 * The four push notification config calls, on every binding, for the task's
 * owner only: another principal's task is not found, exactly as for GetTask.
 * A webhook URL is checked as it is created (see `webhook-url.ts`). A config
 * sent inside SendMessage (`configuration.taskPushNotificationConfig`) is
 * checked the same way, and kept for the message's task.
 */
export class PushConfigHandler extends ForwardingHandler {
  constructor(
    inner: A2ARequestHandler,
    private readonly deps: PushConfigHandlerDeps,
  ) {
    super(inner);
  }

  override async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const taskId = await this.ownTask(params.taskId, context);
    await this.check(params);
    return this.store(taskId, params, context);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const message = await this.takeInline(params, context);
    if (!message) return super.sendMessage(params, context);
    try {
      const result = await super.sendMessage(params, context);
      const taskId = 'status' in result ? result.id : result.taskId;
      if (taskId) await this.deps.inline.store(message, taskId);
      return result;
    } finally {
      this.deps.inline.forget(message);
    }
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const message = await this.takeInline(params, context);
    if (!message) return yield* super.sendMessageStream(params, context);
    try {
      let stored = false;
      for await (const event of super.sendMessageStream(params, context)) {
        const taskId = stored ? undefined : taskIdOfEvent(event);
        if (taskId) {
          await this.deps.inline.store(message, taskId);
          stored = true;
        }
        yield event;
      }
    } finally {
      this.deps.inline.forget(message);
    }
  }

  /**
   * Checks a config sent inside SendMessage before anything runs. To a task
   * that exists it is stored at once; for a new task it waits, and the id of
   * the message that brings it is returned.
   */
  private async takeInline(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<string | undefined> {
    const config = params.configuration?.taskPushNotificationConfig;
    const message = params.message;
    if (!config || !message?.messageId) return undefined;
    await this.check(config);
    if (message.taskId) {
      const taskId = await this.ownTask(message.taskId, context);
      await this.store(taskId, config, context);
      return undefined;
    }
    this.deps.inline.expect(message.messageId, config, context);
    return message.messageId;
  }

  private async check(config: TaskPushNotificationConfig): Promise<void> {
    checkConfig(config);
    try {
      await checkWebhookUrl(config.url, this.deps.options, this.deps.resolve);
    } catch (error) {
      if (error instanceof WebhookRefusedError) throw new RequestMalformedError(error.message);
      throw error;
    }
  }

  private async store(
    taskId: string,
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const existing = await this.deps.configs.load(taskId, context);
    const limit = this.deps.options.configsPerTask;
    if (existing.length >= limit && !existing.some((config) => config.id === params.id)) {
      throw new UnsupportedOperationError(
        `Task ${taskId} already has ${existing.length} push notification configs, the most that push.configsPerTask allows; delete one first.`,
      );
    }
    const config: TaskPushNotificationConfig = { ...params, taskId };
    await this.deps.configs.save(taskId, context, config);
    return config;
  }

  override async getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    const taskId = await this.ownTask(params.taskId, context);
    const found = (await this.deps.configs.load(taskId, context)).find(
      (config) => config.id === params.id,
    );
    if (!found) {
      throw new TaskNotFoundError(
        `Push notification config '${params.id}' not found for task ${taskId}.`,
      );
    }
    return found;
  }

  override async listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    context: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    const taskId = await this.ownTask(params.taskId, context);
    // At most push.configsPerTask: one page holds them all.
    return { configs: await this.deps.configs.load(taskId, context), nextPageToken: '' };
  }

  override async deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<void> {
    const taskId = await this.ownTask(params.taskId, context);
    if (!params.id) throw new RequestMalformedError('id is required: the config to delete.');
    // Deleting a config that is already gone is no error (A2A: delete is idempotent).
    await this.deps.configs.delete(taskId, context, params.id);
  }

  private async ownTask(taskId: string | undefined, context: ServerCallContext): Promise<string> {
    if (!taskId?.trim()) throw new RequestMalformedError('taskId is required.');
    if (!(await this.deps.loadHead(taskId, context)))
      throw new TaskNotFoundError(`Task not found: ${taskId}`);
    return taskId;
  }
}

/** What a config must be before it is stored: its values go into HTTP headers and logs later. */
function checkConfig(config: TaskPushNotificationConfig): void {
  if (!config.url) throw new RequestMalformedError('url is required: where to send the webhook.');
  if (config.url.length > MAX_URL_CHARS)
    throw new RequestMalformedError(`url is longer than ${MAX_URL_CHARS} characters.`);
  if (config.id && config.id.length > MAX_ID_CHARS)
    throw new RequestMalformedError(`id is longer than ${MAX_ID_CHARS} characters.`);
  if (config.token && !HEADER_VALUE.test(config.token))
    throw new RequestMalformedError('token may hold only printable ASCII characters.');
  const auth = config.authentication;
  if (auth && (auth.scheme || auth.credentials)) {
    if (!SCHEME_TOKEN.test(auth.scheme))
      throw new RequestMalformedError(
        'authentication.scheme must be an HTTP authentication scheme, such as Bearer.',
      );
    if (!auth.credentials || !HEADER_VALUE.test(auth.credentials))
      throw new RequestMalformedError(
        'authentication.credentials must be given, in printable ASCII characters.',
      );
  }
}
