import fuzzysort from 'fuzzysort';
import { parseCommandText } from '../parse.js';
import { hintRequiresArguments } from '../hint.js';
import type { CommandSpec } from '../spec.js';

export { hintRequiresArguments };

/** One suggestion for what the user is typing. */
export interface Completion {
  command: CommandSpec;
  /**
   * Why it matched, in rank order. `prefix`: the name starts with the query.
   * `word`: the query is made of starts of the name's words (`mo` in `list-models`,
   * `lm` in `list-models`). `fuzzy`: the query's letters appear in order anywhere,
   * offered only for queries of {@link FUZZY_MIN_QUERY} characters or more.
   */
  kind: 'prefix' | 'word' | 'fuzzy';
  /**
   * Higher is better, within a kind. Prefix: 1 for an exact match, else query
   * length / name length (0 for the empty query). Word: query length / name length,
   * divided by the number of words used. Fuzzy: fuzzysort's score, in (0, 1].
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

/**
 * The shortest query that may match letters scattered through a name. Below it a
 * query matches only at word starts: `/h` offers `/help`, not `/shout`.
 */
export const FUZZY_MIN_QUERY = 2;

interface Entry {
  index: number;
  command: CommandSpec;
  prepared: Fuzzysort.Prepared;
  /** Positions where the name's words start: 0, and each one after a `-`. */
  wordStarts: number[];
  /** The letters at those positions, for a quick first test. */
  initials: string;
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

function wordStartsOf(name: string): number[] {
  const starts = [0];
  for (let i = 1; i < name.length; i++) if (name[i - 1] === '-' && name[i] !== '-') starts.push(i);
  return starts;
}

function prepare(commands: readonly CommandSpec[]): Prepared {
  const cached = preparedCache.get(commands);
  // The length check catches the common in-place mutation (push); treat arrays as immutable.
  if (cached && cached.length === commands.length) return cached;
  const entries = commands.map((command, index) => {
    const wordStarts = wordStartsOf(command.name);
    return {
      index,
      command,
      prepared: fuzzysort.prepare(command.name),
      wordStarts,
      initials: wordStarts.map((at) => command.name[at]).join(''),
    };
  });
  const byLength = entries
    .slice()
    .sort((a, b) => a.command.name.length - b.command.name.length || a.index - b.index);
  const prepared = { length: commands.length, entries, byLength };
  preparedCache.set(commands, prepared);
  return prepared;
}

/** Whether the query's letters appear in order in `name` from `from` on: a cheap necessary test. */
function isSubsequence(query: string, name: string, from: number): boolean {
  let at = 0;
  for (let i = from; i < name.length && at < query.length; i++) {
    if (name.charCodeAt(i) === query.charCodeAt(at)) at++;
  }
  return at === query.length;
}

/** Reused between calls: the DP table of {@link wordStartMatch}, grown when a call needs more. */
let table = new Int32Array(256);
const NONE = 1 << 30;

/**
 * The query as starts of the name's words, in order (`lm` = **l**ist-**m**odels,
 * `mo` = list-**mo**dels): the matched positions using the fewest words, or undefined.
 * Dynamic programming over (query position, word), so a hostile card's long names
 * cost O(query² × words), never an exponential search; the common cases return early.
 */
function wordStartMatch(
  query: string,
  entry: Entry,
): { indexes: number[]; words: number } | undefined {
  const name = entry.command.name;
  const starts = entry.wordStarts;
  const q = query.length;
  const w = starts.length;
  // Cheap answers first: no word starts with the query's first letter, or one word holds it all.
  let firstWord = -1;
  // The longest first chunk any word allows: the second chunk starts within it.
  let longest = 0;
  for (let word = 0; word < w; word++) {
    const start = starts[word]!;
    if (name.charCodeAt(start) !== query.charCodeAt(0)) continue;
    if (firstWord < 0) firstWord = word;
    if (name.startsWith(query, start)) {
      return { indexes: Array.from({ length: q }, (_, k) => start + k), words: 1 };
    }
    let length = 1;
    while (length < q && name.charCodeAt(start + length) === query.charCodeAt(length)) length++;
    longest = Math.max(longest, length);
  }
  if (firstWord < 0 || q === 1) return undefined;
  // A second word must start with a letter the first chunk could end before.
  let secondPossible = false;
  for (let at = 1; at <= longest && !secondPossible; at++) {
    secondPossible = entry.initials.includes(query[at]!);
  }
  if (!secondPossible || !isSubsequence(query, name, starts[firstWord]!)) return undefined;
  const found = searchWords(query, name, starts, firstWord);
  if (found === null) return undefined;
  return found ?? fewestWords(query, name, starts);
}

/** Steps a direct search may take before the table takes over: plenty for real names. */
const SEARCH_BUDGET = 256;

/**
 * A direct search for the fewest words, for ordinary names (a few words): no
 * allocation beyond the answer. Undefined when it ran out of budget, so that a
 * hostile name costs the table's bounded time instead; `null` for no match.
 */
function searchWords(
  query: string,
  name: string,
  starts: number[],
  firstWord: number,
): { indexes: number[]; words: number } | null | undefined {
  const q = query.length;
  const path: number[] = [];
  let best: number[] | undefined;
  let bestWords = Infinity;
  let steps = 0;
  const walk = (from: number, word: number, used: number): boolean => {
    if (++steps > SEARCH_BUDGET) return false;
    if (from === q) {
      if (used < bestWords) [best, bestWords] = [path.slice(), used];
      return true;
    }
    if (used + 1 >= bestWords) return true;
    for (let w = word; w < starts.length; w++) {
      const start = starts[w]!;
      let length = 0;
      while (
        from + length < q &&
        name.charCodeAt(start + length) === query.charCodeAt(from + length)
      )
        length++;
      for (let take = length; take >= 1; take--) {
        for (let k = 0; k < take; k++) path.push(start + k);
        const finished = walk(from + take, w + 1, used + 1);
        path.length -= take;
        if (!finished) return false;
      }
    }
    return true;
  };
  if (!walk(0, firstWord, 0)) return undefined;
  return best ? { indexes: best, words: bestWords } : null;
}

/** The same answer by a table over (query position, word): O(query² × words) at most. */
function fewestWords(
  query: string,
  name: string,
  starts: number[],
): { indexes: number[]; words: number } | undefined {
  const q = query.length;
  const w = starts.length;
  // fewest[from * (w + 1) + word]: fewest words that spell query[from..] from `word` on.
  const width = w + 1;
  if (table.length < (q + 1) * width) table = new Int32Array((q + 1) * width * 2);
  const fewest = table;
  for (let word = 0; word <= w; word++) fewest[q * width + word] = 0;
  for (let from = 0; from < q; from++) fewest[from * width + w] = NONE;
  const common = (from: number, word: number) => {
    let length = 0;
    const start = starts[word]!;
    while (from + length < q && name.charCodeAt(start + length) === query.charCodeAt(from + length))
      length++;
    return length;
  };
  for (let word = w - 1; word >= 0; word--) {
    for (let from = q - 1; from >= 0; from--) {
      let best = fewest[from * width + word + 1]!;
      for (let take = common(from, word); take >= 1; take--) {
        best = Math.min(best, 1 + fewest[(from + take) * width + word + 1]!);
      }
      fewest[from * width + word] = best;
    }
  }
  const words = fewest[0]!;
  if (words >= NONE) return undefined;
  const indexes: number[] = [];
  // The earliest words that achieve the fewest: take a word when it keeps the count.
  for (let from = 0, word = 0; from < q; word++) {
    const here = fewest[from * width + word]!;
    for (let take = common(from, word); take >= 1; take--) {
      if (1 + fewest[(from + take) * width + word + 1]! !== here) continue;
      for (let k = 0; k < take; k++) indexes.push(starts[word]! + k);
      from += take;
      break;
    }
  }
  return { indexes, words };
}

/** SEMANTICS §2 separators: space, tab, CR, LF. */
const SEPARATOR = /[ \t\r\n]/;

/**
 * Completions for what the user typed (`/mo`, `/`, `mo`), ranked as the best
 * pickers do: names that start with the query (exact, then shorter names, then
 * card order); then names whose word starts spell it (`/lm` for `/list-models`);
 * then, for queries of two characters or more, names that hold its letters in
 * order, ranked by fuzzysort. `[]` once the user has typed whitespace after the
 * name: they are writing arguments. Pass a `limit` for the fastest answer.
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
  let takenCount = 0;
  for (const entry of byLength) {
    const { command } = entry;
    if (!command.name.startsWith(query)) continue;
    taken[entry.index] = 1;
    takenCount++;
    results.push({
      command,
      kind: 'prefix',
      score: query.length / command.name.length,
      indexes: prefixIndexes.slice(),
    });
    if (results.length >= limit) return results;
  }
  if (takenCount === entries.length) return results;

  // Word-start matches: fewer words, then a larger share of the name, then card order.
  const first = query[0]!;
  const words: Array<{ completion: Completion; index: number }> = [];
  for (const entry of entries) {
    // A one-word name that does not start with the query cannot match by word starts,
    // nor can a name none of whose words starts with the query's first letter.
    if (taken[entry.index] === 1 || entry.wordStarts.length === 1) continue;
    if (!entry.initials.includes(first)) continue;
    const match = wordStartMatch(query, entry);
    if (!match) continue;
    taken[entry.index] = 1;
    takenCount++;
    words.push({
      index: entry.index,
      completion: {
        command: entry.command,
        kind: 'word',
        score: query.length / entry.command.name.length / match.words,
        indexes: match.indexes,
      },
    });
  }
  words.sort((a, b) => b.completion.score - a.completion.score || a.index - b.index);
  for (const { completion } of words) {
    results.push(completion);
    if (results.length >= limit) return results;
  }
  // The floor: one letter scattered through a name is noise, not intent.
  if (query.length < FUZZY_MIN_QUERY || takenCount === entries.length) return results;

  // Fuzzy matches among the rest.
  const rest = takenCount === 0 ? entries : entries.filter((entry) => taken[entry.index] === 0);
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
