import type { RegisteredCommand } from './command.js';
import type { CommandRegistry } from './registry.js';

/** A text part in either shape: the SDK's in-memory form or the JSON wire form. */
type PartLike =
  | { content?: { $case: string; value?: unknown } | undefined }
  | { text?: unknown; data?: unknown; url?: unknown; raw?: unknown };

export interface MessageLike {
  parts: readonly PartLike[];
}

export interface ParsedCommandText {
  name: string;
  args: string;
}

export interface ParsedCommand extends ParsedCommandText {
  command: RegisteredCommand;
}

const NAME_AT_START = /^\/([a-z][a-z0-9-]*)/;

/** SEMANTICS §2 separators: space, tab, CR, LF. Nothing else counts, not even U+00A0. */
function isSeparator(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\r' || char === '\n';
}

/**
 * Splits `/name args` per SEMANTICS §2 rules 2-3, without asking whether the
 * name is registered. Returns undefined for anything that is not that shape.
 */
export function parseCommandText(text: string): ParsedCommandText | undefined {
  const match = NAME_AT_START.exec(text);
  if (!match) return undefined;
  const name = match[1]!;
  let start = name.length + 1;
  if (start < text.length && !isSeparator(text[start])) return undefined;
  while (start < text.length && isSeparator(text[start])) start++;
  // A manual scan: a trailing-whitespace regex can go quadratic on long arguments.
  let end = text.length;
  while (end > start && isSeparator(text[end - 1])) end--;
  return { name, args: text.slice(start, end) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The text of a message whose only part is a text part (SEMANTICS §2 rule 1), else undefined. */
export function soleText(message: MessageLike): string | undefined {
  if (message.parts.length !== 1) return undefined;
  // Parts may come straight off the wire: anything can be there, not only objects.
  const part: unknown = message.parts[0];
  if (!isObject(part)) return undefined;
  if ('content' in part && part.content !== undefined) {
    const content = part.content;
    return isObject(content) && content.$case === 'text' && typeof content.value === 'string'
      ? content.value
      : undefined;
  }
  if ('text' in part && typeof part.text === 'string') return part.text;
  return undefined;
}

/**
 * SEMANTICS §2: the command this message runs, or undefined when it is an
 * ordinary message that must reach the agent unchanged.
 */
export function parseCommand(
  message: MessageLike,
  registry: Pick<CommandRegistry, 'get'>,
): ParsedCommand | undefined {
  const text = soleText(message);
  if (text === undefined) return undefined;
  const parsed = parseCommandText(text);
  if (!parsed) return undefined;
  const command = registry.get(parsed.name);
  return command ? { ...parsed, command } : undefined;
}
