import type { StreamResponse, SubscribeToTaskRequest, SendMessageRequest } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { ForwardingHandler } from '../serve/forwarding-handler.js';

/**
 * An `A2ARequestHandler` around the commands handler that counts the SSE
 * streams open through it. Commands are timed by the commands handler itself
 * (`onCommandDone`), where the command path decides what a message runs.
 */
export class MeteredRequestHandler extends ForwardingHandler {
  private streams = 0;

  /** SSE streams open now through this handler. */
  get openStreams(): number {
    return this.streams;
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    this.streams++;
    try {
      yield* this.inner.sendMessageStream(params, context);
    } finally {
      this.streams--;
    }
  }

  override async *resubscribe(
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
}
