import { COMMAND_NAME_PATTERN, COMMANDS_EXTENSION_URI, type CommandSpec } from '../spec.js';
import { paramsMatchSchema } from './params.js';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The commands extension entry of a card, in the SDK's in-memory shape or as
 * raw JSON (both keep it at `capabilities.extensions[]`), or undefined.
 */
function findEntry(card: unknown): Record<string, unknown> | undefined {
  if (!isObject(card)) return undefined;
  const capabilities = card['capabilities'];
  if (!isObject(capabilities)) return undefined;
  const extensions = capabilities['extensions'];
  if (!Array.isArray(extensions)) return undefined;
  for (const extension of extensions as unknown[]) {
    if (isObject(extension) && extension['uri'] === COMMANDS_EXTENSION_URI) return extension;
  }
  return undefined;
}

/** Whether the card declares the commands extension, whatever its params say. */
export function hasCommandsExtension(card: unknown): boolean {
  try {
    return findEntry(card) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The commands a card offers, in card order, each with exactly `name`,
 * `description` and `argument_hint` (defaulted to `""`).
 *
 * Never throws: a missing or malformed card, a card without the extension, or
 * params that fail the shipped schema all give `[]`. Entries whose name could
 * never be a command (not `[a-z][a-z0-9-]*`) and repeated names are dropped.
 */
export function readCommands(card: unknown): CommandSpec[] {
  try {
    const params = findEntry(card)?.['params'];
    if (params === undefined || !paramsMatchSchema(params)) return [];
    const listed = (params as { commands?: Array<Partial<CommandSpec>> }).commands ?? [];
    const seen = new Set<string>();
    const commands: CommandSpec[] = [];
    for (const { name, description, argument_hint } of listed) {
      if (name === undefined || description === undefined) continue;
      if (!COMMAND_NAME_PATTERN.test(name) || seen.has(name)) continue;
      seen.add(name);
      commands.push({ name, description, argument_hint: argument_hint ?? '' });
    }
    return commands;
  } catch {
    return [];
  }
}
