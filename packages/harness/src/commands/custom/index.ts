export {
  commandNameFromFile,
  parseCommandFile,
  DESCRIPTION_FALLBACK_LENGTH,
  type CustomCommandDefinition,
  type NameResult,
  type ParseResult,
} from './parse-file.js';
export { expandTemplate, splitArguments, usesArguments } from './template.js';
export { customCommandRun } from './run.js';
export {
  CustomCommands,
  DEFAULT_DEBOUNCE_MS,
  DEFAULT_MAX_FILE_BYTES,
  type CustomCommandsOptions,
} from './loader.js';
