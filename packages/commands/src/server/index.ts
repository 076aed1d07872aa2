export {
  createCommandsServer,
  type CommandsServer,
  type CommandsServerOptions,
} from './create-server.js';
export { CommandsRequestHandler, type CommandsRequestHandlerOptions } from './dispatch.js';
export { commandsContextBuilder } from './context-builder.js';
export { CommandsTaskStore } from './sdk-task-store.js';
export {
  type CommandEffects,
  type CommandTaskStore,
  type TaskHead,
  withoutReplyTags,
} from './command-task-store.js';
export { TurnGate, TurnQueueFullError } from './turn-gate.js';
export { LiveStreams, taskIdOfEvent, type StreamRelay } from './live-streams.js';
export { CommandRunner, type CommandOutcome, type CommandRunnerOptions } from './run-command.js';
export { replyMessage, replyMetadata, commandReplyEvent } from './reply.js';
export { KeyedLock } from './keyed-lock.js';
export {
  ArgumentCompletions,
  CompletionRefusal,
  type ArgumentCompletionsOptions,
} from '../completion/server.js';
export { matchValues } from '../completion/match.js';
