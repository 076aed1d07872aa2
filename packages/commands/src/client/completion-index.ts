/**
 * `a2a-commands/client/completion`: the command completion extension's client
 * half, apart from `a2a-commands/client` so that a client that only completes
 * names does not carry it.
 */
export {
  COMMAND_COMPLETION_EXTENSION_URI,
  DEFAULT_COMPLETION_PATH,
  type ArgumentSpec,
  type CommandArguments,
  type CommandCompletionParams,
  type CompletionRequest,
  type CompletionResponse,
  type CompletionValue,
} from '../completion/spec.js';
export {
  readCompletion,
  argumentPosition,
  takeValue,
  requestCompletion,
  completeArgument,
  CompletionRequestError,
  type ArgumentPosition,
  type ArgumentValues,
  type CompleteArgumentOptions,
  type CompletionRequestOptions,
} from './completion.js';
export {
  completeInput,
  type InputCompletions,
  type CompleteInputOptions,
} from './complete-input.js';
