import {
  argumentHintState,
  complete,
  parseCommandText,
  type CommandSpec,
  type Completion,
} from 'a2a-commands/client';

/*
 * The slash menu's logic, apart from React: what it offers for the text in the
 * composer, how the active entry moves, what choosing inserts, and whether
 * Enter may send. What Enter does with a list open is `a2a-chat-core`'s
 * `enterWithList`, the rule the terminal chat follows too. The rules are the library's (`complete`, `argumentHintState`),
 * so the web chat and the terminal chat agree.
 */

/** At most this many entries are listed; the rest are one more letter away. */
export const MENU_LIMIT = 50;

/**
 * The entries for `input`, best first. Only a `/` at the very start opens the
 * menu (` /help` is a literal message, SEMANTICS §2), and it closes once
 * whitespace follows the name: the user is typing arguments.
 */
export function menuEntries(input: string, commands: readonly CommandSpec[]): Completion[] {
  if (!input.startsWith('/')) return [];
  return complete(input, commands, { limit: MENU_LIMIT });
}

/** The next active index, wrapping at both ends; -1 when there is nothing to move over. */
export function moveActive(active: number, count: number, by: 1 | -1): number {
  if (count <= 0) return -1;
  if (active < 0 || active >= count) return by > 0 ? 0 : count - 1;
  return (active + by + count) % count;
}

/** What choosing an entry puts in the composer: the command and one space, ready for arguments. */
export function insertionFor(command: Pick<CommandSpec, 'name'>): string {
  return `/${command.name} `;
}

/** The name split into runs, with the letters the query matched marked for highlighting. */
export function highlightRuns(
  name: string,
  indexes: readonly number[],
): Array<{ text: string; match: boolean }> {
  const matched = new Set(indexes);
  const runs: Array<{ text: string; match: boolean }> = [];
  for (let i = 0; i < name.length; i++) {
    const match = matched.has(i);
    const last = runs[runs.length - 1];
    if (last && last.match === match) last.text += name[i];
    else runs.push({ text: name[i]!, match });
  }
  return runs;
}

/** The argument hint to show as ghost text after the command, or undefined. */
export interface GhostHint {
  /** The command's `argument_hint`, e.g. `<prompt>` or `[<model>]`. */
  hint: string;
  /** Whether the hint has a required `<...>` argument. */
  required: boolean;
  /** The space to put between the typed text and the hint (none when one is typed). */
  gap: string;
  command: CommandSpec;
}

/** The hint for `input` while no argument has been typed yet. */
export function ghostHint(input: string, commands: readonly CommandSpec[]): GhostHint | undefined {
  const state = argumentHintState(input, commands);
  if (!state || state.hint === '' || state.args !== '') return undefined;
  return {
    hint: state.hint,
    required: state.requiredMissing,
    gap: /[ \t\r\n]$/.test(input) ? '' : ' ',
    command: state.command,
  };
}

/**
 * The line under the box while a command is typed: its hint and description.
 * It stays while the arguments are typed, unlike the ghost text they replace.
 */
export function commandHelp(input: string, commands: readonly CommandSpec[]): string | undefined {
  const state = argumentHintState(input, commands);
  if (!state || state.hint === '') return undefined;
  const { name, description } = state.command;
  return `/${name} ${state.hint}: ${description}${state.requiredMissing ? ' (argument required)' : ''}`;
}

/** Why Enter may not send `input` now, or undefined when it may. */
export function sendBlocker(input: string, commands: readonly CommandSpec[]): string | undefined {
  if (input.trim() === '') return 'Type a message first.';
  const state = argumentHintState(input, commands);
  // The terminal chat's rule: a required `<...>` argument must be filled before Enter sends.
  if (state?.requiredMissing) {
    return `/${state.command.name} needs an argument: ${state.hint}.`;
  }
  return undefined;
}

/** The command `input` runs (a listed name followed by whitespace or the end), or undefined. */
export function commandNameOf(input: string, commands: readonly CommandSpec[]): string | undefined {
  return argumentHintState(input, commands)?.command.name;
}

/** How many names "did you mean" offers at most. */
const SUGGESTIONS = 3;

/**
 * The listed commands closest to an unknown name, best first, by the library's
 * ranking (`complete`): the whole name, then ever shorter starts of it (`/stauts`
 * finds `/status` through `/sta`).
 */
export function suggestionsFor(name: string, commands: readonly CommandSpec[]): CommandSpec[] {
  for (let length = name.length; length > 0; length--) {
    const found = complete(name.slice(0, length), commands, { limit: SUGGESTIONS });
    if (found.length > 0) return found.map((completion) => completion.command);
  }
  return [];
}

/**
 * What to say before sending `input` when it looks like a command the card does
 * not list. The spec lets it go to the agent as an ordinary message (SEMANTICS §2
 * rule 3); the user is told so, with the nearest names. Undefined otherwise, and
 * for agents that list no commands at all.
 */
export function unknownCommandWarning(
  input: string,
  commands: readonly CommandSpec[],
): string | undefined {
  if (commands.length === 0) return undefined;
  const parsed = parseCommandText(input);
  if (!parsed || commands.some((command) => command.name === parsed.name)) return undefined;
  const near = suggestionsFor(parsed.name, commands).map((command) => `/${command.name}`);
  const warning = `/${parsed.name} is not a command of this agent — sent as a message.`;
  return near.length > 0 ? `${warning} Did you mean ${near.join(', ')}?` : warning;
}

/** The letters of `value` that match `typed` (values match case-insensitively, anywhere). */
export function valueMatchIndexes(value: string, typed: string): number[] {
  if (typed === '') return [];
  const at = value.toLowerCase().indexOf(typed.toLowerCase());
  if (at === -1) return [];
  return Array.from({ length: typed.length }, (_, i) => at + i);
}
