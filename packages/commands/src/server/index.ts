export {
  createCommandsServer,
  type CommandsServer,
  type CommandsServerOptions,
} from './create-server.js';
export {
  CommandsRequestHandler,
  type CommandDone,
  type CommandsRequestHandlerOptions,
} from './dispatch.js';
export { commandsContextBuilder } from './context-builder.js';
export { CommandsTaskStore } from './sdk-task-store.js';
export type {
  CommandEffects,
  CommandTaskStore,
  StoredReply,
  TaskHead,
} from './command-task-store.js';
export { TurnGate, TurnQueueFullError } from './turn-gate.js';
export type { StreamRelay, ToldOthers } from './live-streams.js';
export type { ContextSeed, ContinueContext } from './run-command.js';
export {
  ArgumentCompletions,
  CompletionRefusal,
  type ArgumentCompletionsOptions,
} from '../completion/server.js';
export { matchValues } from '../completion/match.js';
