import type {
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { ForwardingHandler } from '../serve/forwarding-handler.js';
import { callerOf, parseCommand, type CommandRegistry } from 'a2a-commands';
import { secondsSince, type HarnessMetrics } from './harness-metrics.js';

/**
 * An `A2ARequestHandler` around the commands handler that times command
 * requests by name and outcome, and counts the SSE streams open through it.
 * A message is a command when the library's parser says so, as the commands
 * handler itself decides (SEMANTICS §2).
 */
export class MeteredRequestHandler extends ForwardingHandler {
  private streams = 0;

  constructor(
    inner: A2ARequestHandler,
    private readonly registry: Pick<CommandRegistry, 'forCaller'>,
    private readonly metrics: HarnessMetrics,
  ) {
    super(inner);
  }

  /** SSE streams open now through this handler. */
  get openStreams(): number {
    return this.streams;
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const name = this.commandName(params, context);
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

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const name = this.commandName(params, context);
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

  /** As the command path decides it: a command this caller may not run is a turn (SEMANTICS §9). */
  private commandName(params: SendMessageRequest, context: ServerCallContext): string | undefined {
    const commands = this.registry.forCaller(callerOf(context));
    return params.message ? parseCommand(params.message, commands)?.name : undefined;
  }
}
