/**
 * The Commands extension v1, as the spec text defines it: its URI, the card
 * params, and the metadata that tags a command reply.
 */
export const COMMANDS_EXTENSION_URI =
  'https://madarauchiha-314.github.io/tiny-harness/a2a/ext/commands/v1';

/** What clients see on the card for one command: exactly these three keys. */
export interface CommandSpec {
  name: string;
  description: string;
  argument_hint: string;
}

/** The extension's `params` on the agent card. */
export interface CommandsExtensionParams {
  commands: CommandSpec[];
}

/** The metadata of a command reply (on the status update and on the reply message). */
export interface CommandReplyMetadata {
  command: string;
  task_ref?: string;
}

/** SEMANTICS §1: a command name. */
export const COMMAND_NAME_PATTERN = /^[a-z][a-z0-9-]*$/;

/** Metadata key under which the library links sub-tasks and parents (SEMANTICS §7). */
export const SUBTASK_METADATA_KEY = 'a2a-commands';

/** The shape stored under {@link SUBTASK_METADATA_KEY}. */
export interface SubtaskLinks {
  parent?: string;
  subtasks?: string[];
}

/**
 * What a refusal says to a program. A reply that refuses (a handler threw a
 * `CommandError`, a required argument is missing, the handler failed) carries a
 * data part `{"error": {code, message}}` beside its text part; `message` is the
 * text a person reads. The reply metadata stays exactly `{command}` (SEMANTICS §3).
 */
export interface CommandReplyError {
  /** Kebab-case: `missing-argument`, `command-error`, `command-failed`, or a handler's own. */
  code: string;
  message: string;
}

/** The data part of a refusal reply. */
export interface CommandRefusalData {
  error: CommandReplyError;
}

/** The codes this library gives refusals; a `CommandError` may name its own. */
export const REPLY_ERROR_CODES = {
  /** The hint declares a required `<argument>` and none was given; the handler did not run. */
  missingArgument: 'missing-argument',
  /** The handler threw a `CommandError` without a code of its own. */
  commandError: 'command-error',
  /** The handler threw something else; the message says only that it failed. */
  commandFailed: 'command-failed',
} as const;

/** A reply error code: lower-case words joined by `-`. */
export const REPLY_ERROR_CODE_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
