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
