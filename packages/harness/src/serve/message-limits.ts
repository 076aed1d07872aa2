import type {
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import { RequestMalformedError, TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { ForwardingHandler } from './forwarding-handler.js';
import type { Limits } from '../config/limits.js';
import { checkListTasksRequest } from './list-tasks-checks.js';
import { checkMessageContent } from './message-shape.js';
import { limitWords } from '../config/limit-words.js';

export type MessageLimits = Pick<Limits, 'partsPerMessage' | 'textChars' | 'idChars'>;

/** Code points in `text`, counted no further than `stop`: a huge text costs no more than the limit. */
function codePointsUpTo(text: string, stop: number): number {
  let count = 0;
  for (let i = 0; i < text.length && count < stop; i++, count++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
  }
  return count;
}

/**
 * Refuses an incoming message with more parts or more text than the limits
 * allow, as a protocol error (-32602 on JSON-RPC, 400 on HTTP+JSON), before
 * anything is stored. Commands and ordinary messages alike.
 */
export function checkMessageLimits(message: Message | undefined, limits: MessageLimits): void {
  if (!message) return;
  const parts = message.parts.length;
  if (parts > limits.partsPerMessage) {
    throw new RequestMalformedError(limitWords.partsPerMessage(parts, limits.partsPerMessage));
  }
  let chars = 0;
  for (const part of message.parts) {
    if (part.content?.$case !== 'text') continue;
    chars += codePointsUpTo(part.content.value, limits.textChars - chars + 1);
    if (chars > limits.textChars) {
      throw new RequestMalformedError(limitWords.textChars(limits.textChars));
    }
  }
}

/** An `A2ARequestHandler` that checks every incoming message's size, then hands everything to `inner`. */
export class MessageLimitsHandler extends ForwardingHandler {
  constructor(
    inner: A2ARequestHandler,
    private readonly limits: MessageLimits,
  ) {
    super(inner);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    checkMessageLimits(params.message, this.limits);
    checkMessageContent(params.message, this.limits);
    return this.inner.sendMessage(params, context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    // Checked on the first next(), before any SSE header: the refusal is a plain error response.
    checkMessageLimits(params.message, this.limits);
    checkMessageContent(params.message, this.limits);
    yield* this.inner.sendMessageStream(params, context);
  }

  override async getTask(params: GetTaskRequest, context: ServerCallContext): Promise<Task> {
    refuseUnstorableTaskId(params.id);
    return this.inner.getTask(params, context);
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    refuseUnstorableTaskId(params.id);
    return this.inner.cancelTask(params, context);
  }

  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    refuseUnstorableTaskId(params.id);
    yield* this.inner.resubscribe(params, context);
  }

  override async listTasks(
    params: ListTasksRequest,
    context: ServerCallContext,
  ): Promise<ListTasksResponse> {
    checkListTasksRequest(params);
    return this.inner.listTasks(params, context);
  }
}

/** No task id holds a NUL (they are refused as they come in), and PostgreSQL cannot be asked for one. */
function refuseUnstorableTaskId(id: string): void {
  if (id.includes('\u0000')) throw new TaskNotFoundError(`Task not found: ${JSON.stringify(id)}`);
}
