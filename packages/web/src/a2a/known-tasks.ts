/*
 * The tasks this browser started or opened, per agent, in local storage. The
 * sidebar lists them and every task in their contexts (what `/tasks` lists).
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

export function storageKey(agentUrl: string): string {
  return `${PREFIX}${agentUrl}`;
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
export function loadKnownTasks(storage: Storage | undefined, agentUrl: string): KnownTask[] {
  try {
    const raw = storage?.getItem(storageKey(agentUrl));
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
  agentUrl: string,
  task: { id: string; contextId: string; title?: string },
  now = Date.now(),
): KnownTask[] {
  const tasks = loadKnownTasks(storage, agentUrl);
  const previous = tasks.find((known) => known.id === task.id);
  const entry: KnownTask = {
    id: task.id,
    contextId: task.contextId,
    title: previous?.title ?? task.title,
    seen: now,
  };
  const next = [entry, ...tasks.filter((known) => known.id !== task.id)].slice(0, MAX_KNOWN_TASKS);
  save(storage, agentUrl, next);
  return next;
}

function save(storage: Storage | undefined, agentUrl: string, tasks: KnownTask[]): void {
  try {
    storage?.setItem(storageKey(agentUrl), JSON.stringify(tasks));
  } catch {
    // Full or blocked storage: the list lives for this page only.
  }
}
