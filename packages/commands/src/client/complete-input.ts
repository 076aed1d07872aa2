import type { CommandCompletionParams } from '../completion/spec.js';
import type { CommandSpec } from '../spec.js';
import { complete, type CompleteOptions, type Completion } from './complete.js';
import {
  argumentPosition,
  completeArgument,
  type ArgumentValues,
  type CompleteArgumentOptions,
} from './completion.js';

/** What to offer for a command line: names, values for an argument, or the hint. */
export type InputCompletions =
  | { kind: 'names'; names: Completion[] }
  | ({ kind: 'values'; command: CommandSpec } & ArgumentValues)
  | { kind: 'hint'; command: CommandSpec; hint: string }
  | { kind: 'none' };

export interface CompleteInputOptions extends CompleteArgumentOptions {
  /** Passed to `complete()` for names. */
  names?: CompleteOptions;
}

/**
 * Names while the name is typed (`complete()`), then values for the argument
 * (`completeArgument()`), and the command's `argument_hint` when the agent
 * offers no values for it, or does not offer the completion extension.
 */
export async function completeInput(
  input: string,
  commands: readonly CommandSpec[],
  completion: CommandCompletionParams | undefined,
  options: CompleteInputOptions = {},
): Promise<InputCompletions> {
  const position = argumentPosition(input);
  if (!position) {
    if (!input.startsWith('/')) return { kind: 'none' };
    return { kind: 'names', names: complete(input, commands, options.names) };
  }
  const command = commands.find((spec) => spec.name === position.command);
  if (!command) return { kind: 'none' };
  const values = await completeArgument(input, completion, options);
  if (values) return { kind: 'values', command, ...values };
  return { kind: 'hint', command, hint: command.argument_hint };
}
