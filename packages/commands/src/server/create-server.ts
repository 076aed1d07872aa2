import type { AgentCard } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  type AgentExecutor,
  type DefaultRequestHandlerOptions,
  type ServerCallContext,
  type ServerCallContextBuilder,
  type TaskStore,
} from '@a2a-js/sdk/server';
import { callerOf } from '../caller-commands.js';
import { CommandsCard } from '../card.js';
import { withCompletionExtension, type CompletionCardOptions } from '../completion/card.js';
import { ArgumentCompletions } from '../completion/server.js';
import { CommandRegistry } from '../registry.js';
import { commandsContextBuilder } from './context-builder.js';
import { CommandsRequestHandler, type CommandsRequestHandlerOptions } from './dispatch.js';
import { CommandsTaskStore } from './sdk-task-store.js';
import { TurnGate } from './turn-gate.js';

/** The SDK `DefaultRequestHandler`'s constructor arguments, by position. */
type SdkHandlerArguments = ConstructorParameters<typeof DefaultRequestHandler>;

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
  /** The SDK handler's own options (`keepBusAliveStates`, `validateInputModes`). */
  requestHandlerOptions?: DefaultRequestHandlerOptions;
  /*
   * The rest of the SDK `DefaultRequestHandler`'s constructor arguments, passed to it
   * as they are: an agent that used them before commands keeps them.
   */
  /** The SDK's event bus manager; its in-memory one by default. */
  eventBusManager?: SdkHandlerArguments[3];
  /** Where push-notification configs are kept; with `pushNotificationSender`, turns are pushed. */
  pushNotificationStore?: SdkHandlerArguments[4];
  pushNotificationSender?: SdkHandlerArguments[5];
  /**
   * The authenticated extended card, or a function of the call context that
   * gives it. When absent and the card says `extendedAgentCard`, each caller
   * gets the card with exactly the commands they may run (SEMANTICS §9).
   */
  extendedAgentCardProvider?: SdkHandlerArguments[6];
  /** Signs the card: each version the registry makes, as served and as `GetAgentCard` gives it. */
  agentCardSignatureGenerator?: SdkHandlerArguments[7];
  onError?: (error: unknown, where: string, context?: ServerCallContext) => void;
  /** Each command answered or refused, with how long it took (`CommandsRequestHandlerOptions`). */
  onCommandDone?: CommandsRequestHandlerOptions['onCommandDone'];
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
  const card = new CommandsCard(options.agentCard, registry, {
    extend: completion && ((base, commands) => withCompletionExtension(base, commands, completion)),
    sign: options.agentCardSignatureGenerator,
    onError: options.onError,
  });
  const store = new CommandsTaskStore(options.taskStore);
  const turns = new TurnGate(options.maxQueuedPerTask);
  const inner = new DefaultRequestHandler(
    card.current,
    store,
    turns.track(options.executor),
    options.eventBusManager,
    options.pushNotificationStore,
    options.pushNotificationSender,
    options.extendedAgentCardProvider,
    options.agentCardSignatureGenerator,
    options.requestHandlerOptions,
  );
  const requestHandler = new CommandsRequestHandler({
    inner,
    registry,
    store,
    turns,
    agentCard: card.provider,
    ...(!options.extendedAgentCardProvider && {
      extendedAgentCard: (context: ServerCallContext) => card.forCaller(callerOf(context)),
    }),
    onError: options.onError,
    signal: options.signal,
    argumentChars: options.argumentChars,
    onCommandDone: options.onCommandDone,
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
