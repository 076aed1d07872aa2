import fuzzysort from 'fuzzysort';
import { parseCommandText } from '../parse.js';
import type { CommandSpec } from '../spec.js';

/** One suggestion for what the user is typing. */
export interface Completion {
  command: CommandSpec;
  /** `prefix`: the name starts with the query; `fuzzy`: its letters appear in order. */
  kind: 'prefix' | 'fuzzy';
  /**
   * Higher is better, within a kind. Prefix: 1 for an exact match, else query
   * length / name length (0 for the empty query). Fuzzy: fuzzysort's score, in (0, 1].
   * Results already come ranked; do not re-sort across kinds by score.
   */
  score: number;
  /** Positions in `command.name` that matched the query, ascending, for highlighting. */
  indexes: number[];
}

export interface CompleteOptions {
  /** At most this many completions (default: all). */
  limit?: number;
}

interface Entry {
  index: number;
  command: CommandSpec;
  prepared: Fuzzysort.Prepared;
}

interface Prepared {
  length: number;
  /** Card order. */
  entries: Entry[];
  /** Shorter names first, then card order: the prefix ranking, sorted once. */
  byLength: Entry[];
}

/** Prepared fuzzy targets per commands array: built once, reused on every keystroke. */
const preparedCache = new WeakMap<readonly CommandSpec[], Prepared>();

function prepare(commands: readonly CommandSpec[]): Prepared {
  const cached = preparedCache.get(commands);
  // The length check catches the common in-place mutation (push); treat arrays as immutable.
  if (cached && cached.length === commands.length) return cached;
  const entries = commands.map((command, index) => ({
    index,
    command,
    prepared: fuzzysort.prepare(command.name),
  }));
  const byLength = entries
    .slice()
    .sort((a, b) => a.command.name.length - b.command.name.length || a.index - b.index);
  const prepared = { length: commands.length, entries, byLength };
  preparedCache.set(commands, prepared);
  return prepared;
}

/** SEMANTICS §2 separators: space, tab, CR, LF. */
const SEPARATOR = /[ \t\r\n]/;

/**
 * Completions for what the user typed (`/mo`, `/`, `mo`): prefix matches on
 * the name first (exact, then shorter names, then card order), then fuzzy
 * matches ranked by fuzzysort. `[]` once the user has typed whitespace after
 * the name: they are writing arguments. Pass a `limit` for the fastest answer.
 *
 * Results are cached per `commands` array: pass the same array on every
 * keystroke and do not mutate it (build a new one when the card changes).
 */
export function complete(
  input: string,
  commands: readonly CommandSpec[],
  options: CompleteOptions = {},
): Completion[] {
  const limit = options.limit ?? Infinity;
  if (!(limit > 0)) return [];
  const typed = input.startsWith('/') ? input.slice(1) : input;
  if (SEPARATOR.test(typed)) return [];
  const query = typed.toLowerCase();
  const { entries, byLength } = prepare(commands);

  if (query === '') {
    return entries
      .slice(0, Math.min(entries.length, limit))
      .map(({ command }) => ({ command, kind: 'prefix', score: 0, indexes: [] }));
  }

  // Prefix matches. With unique names an exact match is the shortest, so it leads.
  const results: Completion[] = [];
  const taken = new Uint8Array(entries.length);
  const prefixIndexes = Array.from({ length: query.length }, (_, i) => i);
  let prefixCount = 0;
  for (const entry of byLength) {
    const { command } = entry;
    if (!command.name.startsWith(query)) continue;
    taken[entry.index] = 1;
    prefixCount++;
    results.push({
      command,
      kind: 'prefix',
      score: query.length / command.name.length,
      indexes: prefixIndexes.slice(),
    });
    if (results.length >= limit) return results;
  }
  if (prefixCount === entries.length) return results;

  // Fuzzy matches among the rest.
  const rest = prefixCount === 0 ? entries : entries.filter((entry) => taken[entry.index] === 0);
  const remaining = limit === Infinity ? undefined : limit - results.length;
  const found = fuzzysort.go(query, rest, { key: 'prepared', limit: remaining });
  // Read each result at once: fuzzysort reuses its result objects on the next search.
  const fuzzyStart = results.length;
  const order: number[] = [];
  for (const result of found) {
    order.push(result.obj.index);
    results.push({
      command: result.obj.command,
      kind: 'fuzzy',
      score: result.score,
      // The getter hands out a fresh, sorted copy each time.
      indexes: result.indexes as number[],
    });
  }
  breakTiesByCardOrder(results, order, fuzzyStart);
  return results;
}

/**
 * fuzzysort ranks by score but leaves ties in no set order: sort each run of
 * equal scores (from `start` on) by card order, leaving the rest untouched.
 */
function breakTiesByCardOrder(results: Completion[], order: number[], start: number): void {
  let runStart = start;
  for (let i = start + 1; i <= results.length; i++) {
    if (i < results.length && results[i]!.score === results[runStart]!.score) continue;
    if (i - runStart > 1) {
      const run = results.slice(runStart, i).map((completion, k) => ({
        completion,
        index: order[runStart - start + k]!,
      }));
      run.sort((a, b) => a.index - b.index);
      for (let k = 0; k < run.length; k++) results[runStart + k] = run[k]!.completion;
    }
    runStart = i;
  }
}

/** What the input line says about the command being typed, for refusing Enter. */
export interface ArgumentHintState {
  command: CommandSpec;
  /** The command's `argument_hint`, to show after the name. */
  hint: string;
  /** The arguments typed so far, trailing whitespace removed. */
  args: string;
  /** True when the hint names a required `<...>` argument and none has been typed. */
  requiredMissing: boolean;
}

/**
 * True when `hint` has a `<...>` argument outside every `[...]`:
 * `<prompt>` is required, `[<model>]` is optional, `""` takes none.
 */
export function hintRequiresArguments(hint: string): boolean {
  let depth = 0;
  for (let i = 0; i < hint.length; i++) {
    const char = hint[i];
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (char === '<' && depth === 0 && hint.indexOf('>', i + 1) !== -1) return true;
  }
  return false;
}

/**
 * For an input such as `/model` or `/model gpt-x`: the command it names (from
 * the card's list) and whether a required argument is still missing.
 * Undefined when the input does not name a listed command (SEMANTICS §2 rules 2-3).
 */
export function argumentHintState(
  input: string,
  commands: readonly CommandSpec[],
): ArgumentHintState | undefined {
  const parsed = parseCommandText(input);
  if (!parsed) return undefined;
  const command = commands.find((candidate) => candidate.name === parsed.name);
  if (!command) return undefined;
  const hint = command.argument_hint ?? '';
  return {
    command,
    hint,
    args: parsed.args,
    requiredMissing: parsed.args === '' && hintRequiresArguments(hint),
  };
}
