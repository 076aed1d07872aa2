import type { Caller } from 'a2a-commands';
import { PRINCIPAL } from '../../serve/api-keys.js';

/** Who may run a custom command, from its frontmatter's `principals` and `groups`. */
export interface CommandCallers {
  principals: string[];
  groups: string[];
}

/** What the rule asks of the keys file: group membership, read live so a key reload applies at once. */
export interface CallerGroups {
  inGroup(principal: string, group: string): boolean;
}

export type CallersResult = { ok: true; callers?: CommandCallers } | { ok: false; reason: string };

/**
 * The frontmatter's `principals:` and `groups:`, each a name or a list of
 * names. Neither: everyone may run the command. An empty list is an error: a
 * command nobody may run is most likely a mistake.
 */
export function parseCallers(data: Record<string, unknown>): CallersResult {
  const principals = namesIn(data, 'principals');
  if (!principals.ok) return principals;
  const groups = namesIn(data, 'groups');
  if (!groups.ok) return groups;
  if (principals.names === undefined && groups.names === undefined) return { ok: true };
  return { ok: true, callers: { principals: principals.names ?? [], groups: groups.names ?? [] } };
}

function namesIn(
  data: Record<string, unknown>,
  key: string,
): { ok: true; names?: string[] } | { ok: false; reason: string } {
  const raw = data[key];
  if (raw === undefined || raw === null) return { ok: true };
  const list = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  if (list.length === 0) return { ok: false, reason: `"${key}" is an empty list` };
  for (const name of list) {
    if (typeof name !== 'string' || !PRINCIPAL.test(name)) {
      return {
        ok: false,
        reason: `"${key}" must be a name or a list of names (letters, digits, '.', '_', '@', '-')`,
      };
    }
  }
  return { ok: true, names: [...new Set(list as string[])] };
}

/**
 * SEMANTICS §9: the registry's rule for a command with `callers`. Only a
 * caller who presented a key is anyone: without keys, nobody may run it.
 */
export function callersRule(
  callers: CommandCallers,
  groups: CallerGroups | undefined,
): (caller: Caller) => boolean {
  const principals = new Set(callers.principals);
  return (caller) =>
    caller.authenticated &&
    (principals.has(caller.name) ||
      (groups !== undefined && callers.groups.some((group) => groups.inGroup(caller.name, group))));
}

/**
 * The loader's `allowedFor` for this server: rules read the keys in force
 * (groups follow a key reload). A command for some callers on a server
 * without keys, or naming a group the keys file lacks, is logged: nobody (or
 * fewer than meant) can run it.
 */
export function customCommandAccess(
  keys: (CallerGroups & { groupNames: string[] }) | undefined,
  warn: (fields: Record<string, unknown>, message: string) => void,
): (definition: {
  name: string;
  callers?: CommandCallers;
}) => ((caller: Caller) => boolean) | undefined {
  return ({ name, callers }) => {
    if (!callers) return undefined;
    if (!keys) {
      warn(
        { command: name },
        'custom command is for some callers only, but API keys are off: nobody can run it',
      );
      return () => false;
    }
    const missing = callers.groups.filter((group) => !keys.groupNames.includes(group));
    if (missing.length > 0) {
      warn(
        { command: name, groups: missing },
        'custom command names groups the keys file does not define',
      );
    }
    return callersRule(callers, keys);
  };
}
