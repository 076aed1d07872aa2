import type { CommandArgument, CompletionValue } from 'a2a-commands';

/** The most arguments, and choices per argument, one file may declare. */
export const MAX_DECLARED_ARGUMENTS = 9;
export const MAX_CHOICES = 200;
const MAX_TEXT = 200;

export type ArgumentsResult =
  { ok: true; arguments: CommandArgument[] } | { ok: false; reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_TEXT
    ? value.trim()
    : undefined;
}

/**
 * The frontmatter's `arguments`: the positional arguments (`$1`, `$2`, ...) in
 * order, each with a `name`, an optional `description`, and optional `choices`
 * (strings, or `{value, description}`), which the card publishes for completion.
 *
 * ```yaml
 * arguments:
 *   - name: environment
 *     choices: [staging, production]
 * ```
 */
export function parseArguments(raw: unknown): ArgumentsResult {
  if (!Array.isArray(raw)) return { ok: false, reason: '"arguments" must be a list' };
  if (raw.length > MAX_DECLARED_ARGUMENTS) {
    return { ok: false, reason: `"arguments" may list at most ${MAX_DECLARED_ARGUMENTS}` };
  }
  const args: CommandArgument[] = [];
  for (const [index, entry] of (raw as unknown[]).entries()) {
    const where = `"arguments" entry ${index + 1}`;
    if (!isObject(entry)) return { ok: false, reason: `${where} must be a mapping with a name` };
    const name = text(entry['name']);
    if (name === undefined) return { ok: false, reason: `${where} needs a "name" string` };
    const argument: CommandArgument = { name };
    if (entry['description'] !== undefined && entry['description'] !== null) {
      const description = text(entry['description']);
      if (description === undefined) {
        return { ok: false, reason: `${where}: "description" must be a string` };
      }
      argument.description = description;
    }
    if (entry['choices'] !== undefined && entry['choices'] !== null) {
      const choices = parseChoices(entry['choices']);
      if (typeof choices === 'string') return { ok: false, reason: `${where}: ${choices}` };
      argument.choices = choices;
    }
    args.push(argument);
  }
  return { ok: true, arguments: args };
}

/** The choices, or why they are refused. */
function parseChoices(raw: unknown): CompletionValue[] | string {
  if (!Array.isArray(raw)) return '"choices" must be a list';
  if (raw.length > MAX_CHOICES) return `"choices" may list at most ${MAX_CHOICES}`;
  const choices: CompletionValue[] = [];
  for (const choice of raw as unknown[]) {
    // YAML reads `- 3` as a number and `- true` as a boolean: take them as text.
    const scalar =
      typeof choice === 'number' || typeof choice === 'boolean' ? String(choice) : choice;
    const value = text(isObject(scalar) ? scalar['value'] : scalar);
    if (value === undefined || /\s/.test(value)) {
      return 'every choice must be a value without spaces, or {value, description}';
    }
    const description = isObject(scalar) ? text(scalar['description']) : undefined;
    choices.push(description === undefined ? { value } : { value, description });
  }
  return choices;
}
