/*
 * The tasks this browser started or opened, per agent (and per API key), in
 * local storage. The sidebar lists them and every task in their contexts (what
 * `/tasks` lists).
 */

export interface KnownTask {
  id: string;
  contextId: string;
  /** The first prompt, as a title until the agent has one. */
  title?: string;
  /** When this browser last touched it (ms since the epoch). */
  seen: number;
}

/** How many tasks are kept per agent; the least recently seen go first. */
export const MAX_KNOWN_TASKS = 200;

const PREFIX = 'a2a-web-chat:v1:tasks:';

/**
 * Whose list it is: the agent URL, and with an API key the key's fingerprint
 * too. An agent with keys shows each principal only its own tasks, so one
 * list per key keeps another key's tasks (which that agent would call not
 * found) out of the sidebar, and switching back brings them back. Without a
 * key the scope is the URL alone, as it always was. (A normalized agent URL
 * starts with its scheme, so the two forms cannot meet.)
 */
export function taskListScope(agentUrl: string, keyFingerprint?: string): string {
  return keyFingerprint ? `key-${keyFingerprint}:${agentUrl}` : agentUrl;
}

export function storageKey(scope: string): string {
  return `${PREFIX}${scope}`;
}

function isKnownTask(value: unknown): value is KnownTask {
  if (typeof value !== 'object' || value === null) return false;
  const task = value as Record<string, unknown>;
  return (
    typeof task['id'] === 'string' &&
    typeof task['contextId'] === 'string' &&
    typeof task['seen'] === 'number' &&
    (task['title'] === undefined || typeof task['title'] === 'string')
  );
}

/** The stored tasks, most recently seen first; `[]` when storage is missing, blocked or corrupt. */
export function loadKnownTasks(storage: Storage | undefined, scope: string): KnownTask[] {
  try {
    const raw = storage?.getItem(storageKey(scope));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(isKnownTask).sort((a, b) => b.seen - a.seen);
  } catch {
    return [];
  }
}

/**
 * Adds or refreshes a task and returns the new list. A title already stored is
 * kept: it was the first prompt (a task started by a command gets the first
 * prompt that follows).
 */
export function rememberTask(
  storage: Storage | undefined,
  scope: string,
  task: { id: string; contextId: string; title?: string },
  now = Date.now(),
): KnownTask[] {
  const tasks = loadKnownTasks(storage, scope);
  const previous = tasks.find((known) => known.id === task.id);
  const entry: KnownTask = {
    id: task.id,
    contextId: task.contextId,
    title: previous?.title ?? task.title,
    seen: now,
  };
  const next = [entry, ...tasks.filter((known) => known.id !== task.id)].slice(0, MAX_KNOWN_TASKS);
  save(storage, scope, next);
  return next;
}

/** Drops a task the agent says it does not have (deleted, or another principal's), and returns the new list. */
export function forgetTask(storage: Storage | undefined, scope: string, id: string): KnownTask[] {
  const tasks = loadKnownTasks(storage, scope);
  const next = tasks.filter((known) => known.id !== id);
  if (next.length !== tasks.length) save(storage, scope, next);
  return next;
}

function save(storage: Storage | undefined, scope: string, tasks: KnownTask[]): void {
  try {
    storage?.setItem(storageKey(scope), JSON.stringify(tasks));
  } catch {
    // Full or blocked storage: the list lives for this page only.
  }
}
