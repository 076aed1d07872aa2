import { COMMAND_NAME_PATTERN } from 'a2a-commands';
import type { CommandArgument } from 'a2a-commands';
import { parseDocument } from 'yaml';
import { parseArguments } from './arguments.js';
import { parseCallers, type CommandCallers } from './callers.js';

/** A custom command as read from one Markdown file, before it has a `run`. */
export interface CustomCommandDefinition {
  /** The file name without `.md`: `review.md` is `/review`. */
  name: string;
  description: string;
  /** `""` when the file has none. */
  argument_hint: string;
  /** `<provider>/<model>`; the sub-task inherits its parent's model when unset. */
  model?: string;
  /** The Markdown body, trimmed: a prompt with `$ARGUMENTS`, `$1`..`$9` and `$$`. */
  template: string;
  /** The frontmatter's `arguments`, with their choices for completion. */
  arguments?: CommandArgument[];
  /** The frontmatter's `principals` and `groups`: who may run it (SEMANTICS §9); everyone when absent. */
  callers?: CommandCallers;
}

export type ParseResult =
  { ok: true; definition: CustomCommandDefinition } | { ok: false; reason: string };

export type NameResult = { ok: true; name: string } | { ok: false; reason: string };

/** The longest description taken from the body when the frontmatter has none. */
export const DESCRIPTION_FALLBACK_LENGTH = 80;

/**
 * `<provider>/<model>`: a provider id, a slash, then a model id without whitespace.
 * The model id may itself contain `/`, `:` or `@` (`openrouter/anthropic/claude`,
 * `bedrock/anthropic.claude-v2:1`); whether the provider exists is checked when the
 * sub-task runs, not here.
 */
const MODEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[^\s/][^\s]*$/;
const MAX_MODEL_LENGTH = 200;

/** `---` on the first line, then YAML, then a line `---` (or `...`). CRLF is accepted. */
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
const FRONTMATTER_START = /^---[ \t]*(?:\r?\n|$)/;

/**
 * The command name a file stands for, or why it stands for none. Only a plain
 * file name is accepted, never a path: anything with a separator or NUL is refused
 * before any other rule, so a name can never point outside the directory.
 */
export function commandNameFromFile(fileName: string): NameResult {
  if (fileName.length === 0) return { ok: false, reason: 'empty file name' };
  if (/[/\\\0]/.test(fileName)) {
    return { ok: false, reason: 'the file name contains a path separator' };
  }
  if (fileName.startsWith('.')) return { ok: false, reason: 'dotfiles are ignored' };
  if (!fileName.endsWith('.md')) return { ok: false, reason: 'not a .md file' };
  const name = fileName.slice(0, -'.md'.length);
  if (!COMMAND_NAME_PATTERN.test(name)) {
    return {
      ok: false,
      reason: `invalid command name ${JSON.stringify(name)}: it must match [a-z][a-z0-9-]*`,
    };
  }
  return { ok: true, name };
}

/**
 * Reads one command file (pure: no IO). The file name gives the name; optional YAML
 * frontmatter gives `description`, `argument-hint`, `model`, `arguments`, and who may run it
 * (`principals`, `groups`); the body is the template.
 *
 * Decisions:
 * - `description` absent (or `null`, as in `description:`) falls back to the first
 *   non-empty body line, without a leading Markdown heading marker (`# `), cut to
 *   {@link DESCRIPTION_FALLBACK_LENGTH} characters (the last one `…` when cut).
 *   A `description` that is given but is not a string, or is blank, is an error: the
 *   author meant to set it, so silently replacing it would hide the mistake.
 * - `argument-hint` must be a string when present. Unquoted `[file]` is a YAML list,
 *   so the reason says to quote it.
 * - Other frontmatter keys are ignored.
 * - The body must not be blank: a command with nothing to send has no use.
 */
export function parseCommandFile(fileName: string, content: string): ParseResult {
  const named = commandNameFromFile(fileName);
  if (!named.ok) return named;
  const { name } = named;

  const text = content.startsWith('\uFEFF') ? content.slice(1) : content;
  let data: Record<string, unknown> = {};
  let body = text;
  if (FRONTMATTER_START.test(text)) {
    const match = FRONTMATTER.exec(text);
    if (!match || match.index !== 0) {
      return { ok: false, reason: 'the frontmatter has no closing "---" line' };
    }
    const yaml = readYaml(match[1] ?? '');
    if (!yaml.ok) return yaml;
    data = yaml.data;
    body = text.slice(match[0].length);
  }

  const template = body.trim();
  if (template === '') return { ok: false, reason: 'the prompt template (the body) is empty' };

  let description: string;
  const rawDescription = data['description'];
  if (rawDescription === undefined || rawDescription === null) {
    description = descriptionFromBody(template);
  } else if (typeof rawDescription !== 'string') {
    return { ok: false, reason: '"description" must be a string' };
  } else if (rawDescription.trim() === '') {
    return { ok: false, reason: '"description" is empty' };
  } else {
    description = rawDescription.trim();
  }

  let argument_hint = '';
  const rawHint = data['argument-hint'];
  if (rawHint !== undefined && rawHint !== null) {
    if (typeof rawHint !== 'string') {
      return {
        ok: false,
        reason: '"argument-hint" must be a string (quote it: argument-hint: "[file]")',
      };
    }
    argument_hint = rawHint.trim();
  }

  const definition: CustomCommandDefinition = { name, description, argument_hint, template };
  const rawModel = data['model'];
  if (rawModel !== undefined && rawModel !== null) {
    if (
      typeof rawModel !== 'string' ||
      rawModel.length > MAX_MODEL_LENGTH ||
      !MODEL_PATTERN.test(rawModel.trim())
    ) {
      return {
        ok: false,
        reason: `"model" must be a "<provider>/<model>" string, got ${preview(rawModel)}`,
      };
    }
    definition.model = rawModel.trim();
  }
  const rawArguments = data['arguments'];
  if (rawArguments !== undefined && rawArguments !== null) {
    const parsed = parseArguments(rawArguments);
    if (!parsed.ok) return parsed;
    definition.arguments = parsed.arguments;
  }
  const callers = parseCallers(data);
  if (!callers.ok) return callers;
  if (callers.callers) definition.callers = callers.callers;
  return { ok: true, definition };
}

function readYaml(
  source: string,
): { ok: true; data: Record<string, unknown> } | { ok: false; reason: string } {
  try {
    // `yaml` caps alias expansion (maxAliasCount), so a "billion laughs" file fails here.
    const doc = parseDocument(source, { prettyErrors: false, uniqueKeys: true });
    const [error] = doc.errors;
    if (error)
      return { ok: false, reason: `invalid YAML frontmatter: ${firstLine(error.message)}` };
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return { ok: true, data: {} };
    if (typeof value !== 'object' || Array.isArray(value)) {
      return { ok: false, reason: 'the frontmatter must be a YAML mapping (key: value lines)' };
    }
    return { ok: true, data: value as Record<string, unknown> };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `invalid YAML frontmatter: ${firstLine(message)}` };
  }
}

function descriptionFromBody(template: string): string {
  for (const rawLine of template.split(/\r?\n/)) {
    const line = rawLine
      .trim()
      .replace(/^#{1,6}\s+/, '')
      .trim();
    if (line !== '') return truncate(line, DESCRIPTION_FALLBACK_LENGTH);
  }
  // Unreachable for a non-blank template, but keeps the registry's rule visible here.
  return 'Custom command';
}

/** At most `max` code points; the last one is `…` when the text was cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, max - 1).join('') + '…';
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function preview(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return truncate(json, 60);
}
