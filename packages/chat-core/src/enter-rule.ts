import type { CommandSpec, Completion } from 'a2a-commands/client';
import { takeValue, type ArgumentValues } from 'a2a-commands/client/completion';

/*
 * What Enter does while a list is open under the input, decided once for both
 * chats. The rule pickers follow: when the highlighted entry differs from what
 * is typed, Enter takes it. Taking it also sends when the line is then a whole
 * command (a command that takes no argument, or a value for the command's last
 * argument); otherwise the line is filled and waits for the next argument.
 */

/** The list open under the input, and which entry is highlighted. */
export type OpenList =
  | { kind: 'commands'; entries: readonly Completion[]; highlighted: number }
  | {
      kind: 'values';
      offered: ArgumentValues;
      highlighted: number;
      /** The person moved the highlight (arrows): with nothing typed it is a choice. */
      moved: boolean;
    };

/** What Enter does to the line. */
export type EnterOutcome =
  /** The list does not change the line: Enter sends what is typed, as it would without a list. */
  | { kind: 'as-typed' }
  /** The highlighted entry goes into the line, and nothing is sent yet. */
  | { kind: 'fill'; text: string }
  /** The highlighted entry goes into the line, and the line is sent. */
  | { kind: 'send'; text: string };

const AS_TYPED: EnterOutcome = { kind: 'as-typed' };

/** How many `<...>` arguments a hint names; a hint without any still takes one value. */
function argumentCount(hint: string): number {
  return Math.max(1, hint.match(/<[^>]*>/g)?.length ?? 0);
}

function enterOnCommands(input: string, entries: readonly Completion[], highlighted: number) {
  const entry = entries[highlighted];
  if (!entry) return AS_TYPED;
  const name = `/${entry.command.name}`;
  if (input === name) return AS_TYPED;
  const takesArguments = (entry.command.argument_hint ?? '') !== '';
  return takesArguments
    ? ({ kind: 'fill', text: `${name} ` } as const)
    : ({ kind: 'send', text: name } as const);
}

function enterOnValues(
  input: string,
  list: Extract<OpenList, { kind: 'values' }>,
  commands: readonly CommandSpec[],
): EnterOutcome {
  const { offered, highlighted, moved } = list;
  const entry = offered.values[highlighted];
  const typed = offered.position.value;
  if (!entry || entry.value === typed) return AS_TYPED;
  // With nothing typed, the first value is only where the list starts (`/model ` shows the model).
  if (typed === '' && !moved) return AS_TYPED;
  const text = takeValue(input, offered.position, entry.value);
  const hint = commands.find((command) => command.name === offered.position.command)?.argument_hint;
  const last = offered.position.index + 1 >= argumentCount(hint ?? '');
  return last ? { kind: 'send', text } : { kind: 'fill', text: `${text} ` };
}

/** What Enter does to `input` with `list` open; `as-typed` when no list is open. */
export function enterWithList(
  input: string,
  list: OpenList | undefined,
  commands: readonly CommandSpec[],
): EnterOutcome {
  if (!list) return AS_TYPED;
  return list.kind === 'commands'
    ? enterOnCommands(input, list.entries, list.highlighted)
    : enterOnValues(input, list, commands);
}
