/**
 * Prompt templates of custom commands.
 *
 * Placeholders:
 * - `$ARGUMENTS`: the command's arguments exactly as typed (SEMANTICS §2: trailing
 *   whitespace already removed, inner spaces and newlines kept);
 * - `$1` to `$9`: the arguments split by {@link splitArguments}; a missing one is `""`.
 *   Only one digit is read, so `$10` is `$1` followed by `0`;
 * - `$$`: a literal `$`. This is the escape an author needs to write a placeholder's
 *   text into a prompt (`$$1` gives `$1`, `$$ARGUMENTS` gives `$ARGUMENTS`).
 * Any other `$` is kept as it is (`$0`, `$HOME`, `5$`).
 *
 * Expansion is a single left-to-right pass: the text that replaces a placeholder is
 * never scanned again. So an argument such as `$1` or `$ARGUMENTS` reaches the prompt
 * literally, and a user cannot make one argument pull in another or repeat itself.
 */
const PLACEHOLDER = /\$(\$|ARGUMENTS|[1-9])/g;

/**
 * Whether a template uses an argument placeholder (`$$` does not count).
 */
export function usesArguments(template: string): boolean {
  for (const match of template.matchAll(PLACEHOLDER)) if (match[1] !== '$') return true;
  return false;
}

/** An expansion that would pass `maxChars`: its text is never built in full. */
export class PromptTooLongError extends Error {
  override name = 'PromptTooLongError';
  constructor(readonly maxChars: number) {
    super(`the expanded prompt is longer than ${maxChars} characters`);
  }
}

/**
 * Expands `template` with the command's arguments in one pass (see the module comment).
 *
 * When the template has no argument placeholder at all and arguments were given, they
 * are appended after a blank line, so that `/review src/a.ts` on a template that never
 * mentions its arguments does not silently drop what the user typed.
 *
 * With `maxChars`, a result of more code points throws {@link PromptTooLongError},
 * and the expansion stops as soon as it is sure to: a template that repeats
 * `$ARGUMENTS` 5,000 times must not build a 10 MB string first.
 */
export function expandTemplate(template: string, args: string, maxChars = Infinity): string {
  let positional: string[] | undefined;
  let usedArguments = false;
  // UTF-16 units: at most two per code point, so past 2 × maxChars it is surely too long.
  let units = template.length;
  const grow = (text: string): string => {
    units += text.length;
    if (units > 2 * maxChars) throw new PromptTooLongError(maxChars);
    return text;
  };
  let expanded = template.replace(PLACEHOLDER, (_match, token: string) => {
    if (token === '$') return '$';
    usedArguments = true;
    if (token === 'ARGUMENTS') return grow(args);
    positional ??= splitArguments(args);
    return grow(positional[Number(token) - 1] ?? '');
  });
  if (!usedArguments && args.trim() !== '') expanded = `${expanded}\n\n${args}`;
  if (Number.isFinite(maxChars) && codePoints(expanded) > maxChars)
    throw new PromptTooLongError(maxChars);
  return expanded;
}

/** Code points, as limits.textChars counts them: a surrogate pair is one. */
function codePoints(text: string): number {
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/**
 * Splits arguments at runs of whitespace. A double-quoted run may contain whitespace
 * and is one argument without its quotes: `"src/a b.ts" fast` gives `src/a b.ts` and
 * `fast`. Quoted and unquoted text next to each other join (`a"b c"` is `ab c`), `""`
 * is an empty argument, and a quote left open runs to the end. There are no escapes:
 * a backslash is an ordinary character (Windows paths), and so is a single quote.
 */
export function splitArguments(args: string): string[] {
  const result: string[] = [];
  let current = '';
  let inToken = false;
  let inQuotes = false;
  for (const char of args) {
    if (inQuotes) {
      if (char === '"') inQuotes = false;
      else current += char;
    } else if (char === '"') {
      inQuotes = true;
      inToken = true;
    } else if (/\s/.test(char)) {
      if (inToken) result.push(current);
      current = '';
      inToken = false;
    } else {
      current += char;
      inToken = true;
    }
  }
  if (inToken) result.push(current);
  return result;
}
