export * from './spec.js';
export { commandsExtensionParamsSchema } from './schema/index.js';
export type * from './command.js';
export { CommandRegistry, CommandRegistrationError, type RegistryListener } from './registry.js';
export { callerOf, type CommandView } from './caller-commands.js';
export {
  parseCommand,
  parseCommandText,
  soleText,
  type MessageLike,
  type ParsedCommand,
  type ParsedCommandText,
} from './parse.js';
export {
  cardToJson,
  commandsExtension,
  withCommandsExtension,
  CommandsCard,
  type CommandsCardOptions,
} from './card.js';
export { CommandError, type CommandErrorOptions } from './errors.js';
export { hintRequiresArguments } from './hint.js';
export { isCommandExchange, withoutCommands } from './history.js';
export { TERMINAL_STATES, RUNNING_STATES, isTerminalState, isRunningState } from './task-states.js';
export { newMessage, textPart, dataPart, USER, AGENT, type MessageInit } from './message.js';
export * from './completion/spec.js';
export {
  completionExtension,
  withCompletionExtension,
  type CompletionCardOptions,
} from './completion/card.js';
export {
  commandCompletionParamsSchema,
  completionRequestSchema,
  completionResponseSchema,
} from './schema/completion.js';
export { commandRefusalSchema } from './schema/refusal.js';
