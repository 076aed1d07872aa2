/** A named set of principals, from a keys file line `@ops = alice, bob`. */
export interface ApiKeyGroup {
  name: string;
  members: string[];
  /** Where it was read, for error messages: `file:line`. */
  source: string;
}

/** A group line starts with `@`, which no principal name can: old key files read the same. */
export function isGroupLine(line: string): boolean {
  return line.startsWith('@');
}

/**
 * `@ops = alice, bob carol`: the group's name, then its members, separated by
 * commas or spaces. What is wrong is said; the line is quoted only by its place.
 */
export function parseGroupLine(
  line: string,
  source: string,
  principalPattern: RegExp,
): ApiKeyGroup {
  const equals = line.indexOf('=');
  if (equals < 0) throw new Error(`${source}: expected @group = principal, principal, ...`);
  const name = line.slice(1, equals).trim();
  if (!principalPattern.test(name)) {
    throw new Error(
      `${source}: a group name is 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit`,
    );
  }
  const members = line
    .slice(equals + 1)
    .split(/[\s,]+/)
    .filter((member) => member !== '');
  if (members.length === 0) throw new Error(`${source}: the group "${name}" has no members`);
  for (const member of members) {
    if (!principalPattern.test(member)) {
      throw new Error(`${source}: the group "${name}" names an invalid principal`);
    }
  }
  return { name, members: [...new Set(members)], source };
}

/**
 * Who is in which group, checked against the principals that have keys: a
 * member without a key is most likely a typo, and would silently be nobody.
 */
export function groupMembers(
  groups: readonly ApiKeyGroup[],
  principals: ReadonlySet<string>,
): Map<string, ReadonlySet<string>> {
  const byName = new Map<string, ReadonlySet<string>>();
  for (const group of groups) {
    if (byName.has(group.name)) {
      throw new Error(`${group.source}: the group "${group.name}" is defined twice`);
    }
    const unknown = group.members.filter((member) => !principals.has(member));
    if (unknown.length > 0) {
      throw new Error(
        `${group.source}: the group "${group.name}" names principals without a key: ${unknown.join(', ')}`,
      );
    }
    byName.set(group.name, new Set(group.members));
  }
  return byName;
}
