import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { groupMembers, isGroupLine, parseGroupLine, type ApiKeyGroup } from './api-key-groups.js';

/** Keys shorter than this are accepted, with a warning: they are guessable. */
export const SHORT_KEY_CHARS = 16;

/** What a principal's (or a group's) name may be. */
export const PRINCIPAL = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const KEY = /^[\x21-\x7e]+$/;

/**
 * The owner the SDK gives tasks created without keys. A key with this name
 * would read every task made while the server ran without keys, so no key may
 * have it.
 */
export const ANONYMOUS_OWNER = 'unknown';

export class ApiKeysError extends Error {
  override name = 'ApiKeysError';
}

/** One `principal=key` pair, as read from the environment or a file. */
export interface ApiKeyEntry {
  principal: string;
  key: string;
  /** Where it was read, for error messages: `HARNESS_API_KEYS` or `file:line`. */
  source: string;
}

/**
 * Who holds which key. Keys are kept only as SHA-256 digests and compared in
 * constant time, so neither a memory dump nor response timing gives one away.
 */
export class ApiKeys {
  private digests: { digest: Buffer; principal: string }[];
  private short: string[];
  private groups: Map<string, ReadonlySet<string>>;

  constructor(entries: readonly ApiKeyEntry[], groups: readonly ApiKeyGroup[] = []) {
    const seen = new Map<string, ApiKeyEntry>();
    for (const entry of entries) {
      if (entry.principal.toLowerCase() === ANONYMOUS_OWNER) {
        throw new ApiKeysError(
          `${entry.source}: the principal name "${entry.principal}" is reserved: it owns the tasks made without keys`,
        );
      }
      const earlier = seen.get(entry.key);
      if (earlier) {
        throw new ApiKeysError(
          `${entry.source}: the key of "${entry.principal}" is already the key of "${earlier.principal}" (${earlier.source}); each key must name one principal`,
        );
      }
      seen.set(entry.key, entry);
    }
    this.digests = entries.map(({ key, principal }) => ({ digest: digestOf(key), principal }));
    this.short = entries.filter((e) => e.key.length < SHORT_KEY_CHARS).map((e) => e.principal);
    try {
      this.groups = groupMembers(groups, new Set(entries.map((e) => e.principal)));
    } catch (error) {
      throw new ApiKeysError((error as Error).message);
    }
  }

  /** Whether `principal` is in the keys file's group `group` (SEMANTICS §9: who may run a command). */
  inGroup(principal: string, group: string): boolean {
    return this.groups.get(group)?.has(principal) ?? false;
  }

  /** The groups' names, sorted. */
  get groupNames(): string[] {
    return [...this.groups.keys()].sort();
  }

  /** Principals whose keys are shorter than `SHORT_KEY_CHARS`, to warn about. */
  get shortKeys(): string[] {
    return this.short;
  }

  /**
   * Takes `next`'s keys in one step (SIGHUP reload): the next check sees only
   * them. Requests already let through keep their principal.
   */
  replaceWith(next: ApiKeys): void {
    this.digests = next.digests;
    this.short = next.short;
    this.groups = next.groups;
    for (const listener of this.replaced) listener();
  }

  private readonly replaced: (() => void)[] = [];

  /** `listener` runs after each `replaceWith`: streams opened with a key now gone are ended then. */
  onReplaced(listener: () => void): void {
    this.replaced.push(listener);
  }

  /** Whether `digest` (from `holderOf`) is still the key of `principal`. */
  stillHolds(digest: Buffer, principal: string): boolean {
    let held = false;
    for (const entry of this.digests) {
      if (entry.principal === principal && timingSafeEqual(entry.digest, digest)) held = true;
    }
    return held;
  }

  get size(): number {
    return this.digests.length;
  }

  /** The principals with a key, sorted, each once. */
  get principals(): string[] {
    return [...new Set(this.digests.map((d) => d.principal))].sort();
  }

  /** The principal `key` belongs to, or undefined. Every stored key is compared, match or not. */
  principalOf(key: string): string | undefined {
    return this.holderOf(key)?.principal;
  }

  /** The principal `key` belongs to, with the key's digest (kept instead of the key); undefined if none. */
  holderOf(key: string): { principal: string; digest: Buffer } | undefined {
    const candidate = digestOf(key);
    let found: string | undefined;
    for (const { digest, principal } of this.digests) {
      if (timingSafeEqual(digest, candidate) && found === undefined) found = principal;
    }
    return found === undefined ? undefined : { principal: found, digest: candidate };
  }
}

function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** `alice=key1,bob=key2`: the form of `HARNESS_API_KEYS`. */
export function parseApiKeyList(text: string, source = 'HARNESS_API_KEYS'): ApiKeyEntry[] {
  return text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair, index) => parsePair(pair, `${source} entry ${index + 1}`));
}

/** One `principal=key` per line; blank lines and `#` comments are skipped (and so are group lines). */
export function parseApiKeyFile(text: string, file: string): ApiKeyEntry[] {
  return parseKeysFile(text, file).keys;
}

/** A keys file: `principal=key` lines, and `@group = principal, ...` lines. */
export function parseKeysFile(
  text: string,
  file: string,
): { keys: ApiKeyEntry[]; groups: ApiKeyGroup[] } {
  const keys: ApiKeyEntry[] = [];
  const groups: ApiKeyGroup[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    const source = `${file}:${index + 1}`;
    if (trimmed === '' || trimmed.startsWith('#')) return;
    if (!isGroupLine(trimmed)) {
      keys.push(parsePair(trimmed, source));
      return;
    }
    try {
      groups.push(parseGroupLine(trimmed, source, PRINCIPAL));
    } catch (error) {
      throw new ApiKeysError((error as Error).message);
    }
  });
  return { keys, groups };
}

function parsePair(pair: string, source: string): ApiKeyEntry {
  if (isGroupLine(pair)) {
    throw new ApiKeysError(`${source}: groups (@name = ...) are read from the keys file only`);
  }
  const equals = pair.indexOf('=');
  // The key is never quoted back: a typo in a pair could put a real key in the logs.
  if (equals < 0) throw new ApiKeysError(`${source}: expected principal=key`);
  const principal = pair.slice(0, equals).trim();
  const key = pair.slice(equals + 1).trim();
  if (!PRINCIPAL.test(principal)) {
    throw new ApiKeysError(
      `${source}: a principal is 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit`,
    );
  }
  if (!KEY.test(key)) {
    throw new ApiKeysError(
      `${source}: the key of "${principal}" must be non-empty printable ASCII without spaces`,
    );
  }
  return { principal, key, source };
}

/** Keys from `HARNESS_API_KEYS` and `--api-keys <file>` together; undefined when there are none. */
export function loadApiKeys(options: { env?: string; file?: string }): ApiKeys | undefined {
  const entries: ApiKeyEntry[] = [];
  const groups: ApiKeyGroup[] = [];
  if (options.env !== undefined) entries.push(...parseApiKeyList(options.env));
  if (options.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.file, 'utf8');
    } catch (error) {
      throw new ApiKeysError(
        `cannot read API key file ${options.file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    const fromFile = parseKeysFile(text, options.file);
    if (fromFile.keys.length === 0) {
      throw new ApiKeysError(`${options.file}: no principal=key lines`);
    }
    entries.push(...fromFile.keys);
    groups.push(...fromFile.groups);
  }
  return entries.length === 0 ? undefined : new ApiKeys(entries, groups);
}
