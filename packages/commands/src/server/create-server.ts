import type { AgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  type AgentExecutor,
  type DefaultRequestHandlerOptions,
  type ServerCallContext,
  type ServerCallContextBuilder,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { CommandsCard } from '../card.js';
import { withCompletionExtension, type CompletionCardOptions } from '../completion/card.js';
import { ArgumentCompletions } from '../completion/server.js';
import { CommandRegistry } from '../registry.js';
import { commandsContextBuilder } from './context-builder.js';
import { CommandsRequestHandler } from './dispatch.js';
import { CommandsTaskStore } from './sdk-task-store.js';
import { TurnGate } from './turn-gate.js';

export interface CommandsServerOptions {
  agentCard: AgentCard;
  executor: AgentExecutor;
  registry?: CommandRegistry;
  /** The SDK store to keep tasks in; in memory by default. */
  taskStore?: TaskStore;
  /** Refuse an ordinary message when this many already wait on its task. */
  maxQueuedPerTask?: number;
  /** Refuse a command whose arguments have more characters than this; unlimited when absent. */
  argumentChars?: number;
  requestHandlerOptions?: DefaultRequestHandlerOptions;
  onError?: (error: unknown, where: string, context?: ServerCallContext) => void;
  signal?: AbortSignal;
  /**
   * Offer the command completion extension: its card entry names `endpoint`
   * (the absolute URL where `commandsRoutes` serves it, `<base>/a2a/complete`).
   */
  completion?: CompletionCardOptions;
}

export interface CommandsServer {
  registry: CommandRegistry;
  /** The card, following the registry. */
  card: CommandsCard;
  /** Give this to the SDK's `jsonRpcHandler` and `restHandler`. */
  requestHandler: CommandsRequestHandler;
  /** Give this to the same handlers, so the extension header is echoed. */
  contextBuilder: ServerCallContextBuilder;
  store: CommandsTaskStore;
  turns: TurnGate;
  /** The completion route's logic, when `completion` was given. */
  completions?: ArgumentCompletions;
}

/** Everything an SDK agent needs to offer commands, wired together. */
export function createCommandsServer(options: CommandsServerOptions): CommandsServer {
  const registry = options.registry ?? new CommandRegistry();
  const { completion } = options;
  const card = new CommandsCard(
    options.agentCard,
    registry,
    completion && { extend: (base) => withCompletionExtension(base, registry, completion) },
  );
  const store = new CommandsTaskStore(options.taskStore);
  const turns = new TurnGate(options.maxQueuedPerTask);
  const inner = new DefaultRequestHandler(
    card.current,
    store,
    turns.track(options.executor),
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    options.requestHandlerOptions,
  );
  const requestHandler = new CommandsRequestHandler({
    inner,
    registry,
    store,
    turns,
    agentCard: card.provider,
    onError: options.onError,
    signal: options.signal,
    argumentChars: options.argumentChars,
  });
  const completions =
    completion && new ArgumentCompletions({ registry, store, maxValues: completion.maxValues });
  return {
    registry,
    card,
    requestHandler,
    contextBuilder: commandsContextBuilder(),
    store,
    turns,
    completions,
  };
}
