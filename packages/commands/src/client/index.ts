export {
  COMMANDS_EXTENSION_URI,
  COMMAND_NAME_PATTERN,
  type CommandSpec,
  type CommandsExtensionParams,
  type CommandReplyMetadata,
  type CommandReplyError,
  type CommandRefusalData,
  REPLY_ERROR_CODES,
  SUBTASK_METADATA_KEY,
} from '../spec.js';
export {
  TERMINAL_STATES,
  RUNNING_STATES,
  isTerminalState,
  isRunningState,
} from '../task-states.js';
export { parseCommandText, type ParsedCommandText } from '../parse.js';
export { readCommands, hasCommandsExtension } from './card.js';
export {
  complete,
  FUZZY_MIN_QUERY,
  argumentHintState,
  hintRequiresArguments,
  type Completion,
  type CompleteOptions,
  type ArgumentHintState,
} from './complete.js';
export {
  isCommandReply,
  commandOf,
  taskRefOf,
  replyMetadataOf,
  replyMessageOf,
  replyData,
  replyText,
  replyErrorOf,
  isReplyError,
  type CommandReply,
  type CommandReplyMark,
} from './reply.js';
export {
  commandRequestOptions,
  textMessage,
  textRequest,
  sendText,
  streamText,
  type TextMessageOptions,
  type SendTextOptions,
} from './send.js';
export { refreshCard, type CardRefresh, type CardRefreshOptions } from './card-refresh.js';
