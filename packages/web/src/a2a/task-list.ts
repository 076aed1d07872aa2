import type { Task, TaskState } from '@a2a-js/sdk';
import { taskTree } from 'a2a-chat-core';
import type { KnownTask } from './known-tasks.js';
import { forkOriginOf } from './fork-of.js';
import { parentOf, titleOf } from './messages.js';

/** One line of the sidebar. */
export interface TaskRow {
  id: string;
  contextId: string;
  title: string;
  state?: TaskState;
  /** The task that spawned it, when that task is listed too. */
  parentId?: string;
  /** Made by `/fork`: a copy that goes on independently, not a sub-task. */
  fork?: boolean;
  /** 0 for a top-level task, 1 for its sub-tasks, and so on. */
  depth: number;
  /** Last activity, ms since the epoch: the status timestamp, or when this browser saw it. */
  updated: number;
}

export const UNTITLED = 'Untitled task';

/**
 * The sidebar's rows: every listed task (the tasks of the contexts this
 * browser knows) and every known task the listing missed. Top-level tasks come
 * newest first; each task's sub-tasks follow it, oldest first, indented.
 */
export function taskRows(known: readonly KnownTask[], listed: readonly Task[]): TaskRow[] {
  const rows = new Map<string, TaskRow>();
  const knownById = new Map(known.map((task) => [task.id, task]));
  for (const task of listed) {
    if (rows.has(task.id)) continue;
    const local = knownById.get(task.id);
    const stamp = Date.parse(task.status?.timestamp ?? '');
    rows.set(task.id, {
      id: task.id,
      contextId: task.contextId,
      title: titleOf(task) ?? local?.title ?? UNTITLED,
      state: task.status?.state,
      parentId: parentOf(task),
      fork: forkOriginOf(task) !== undefined || undefined,
      depth: 0,
      updated: Number.isNaN(stamp) ? (local?.seen ?? 0) : stamp,
    });
  }
  for (const task of known) {
    if (rows.has(task.id)) continue;
    rows.set(task.id, {
      id: task.id,
      contextId: task.contextId,
      title: task.title ?? UNTITLED,
      depth: 0,
      updated: task.seen,
    });
  }

  // Newest first at the top; a task's sub-tasks oldest first, in the order they were started.
  const newestFirst = [...rows.values()].sort((a, b) => b.updated - a.updated);
  return taskTree(
    newestFirst.map((row) => ({ ...row, parent: row.parentId })),
    { childOrder: (a, b) => a.updated - b.updated },
  ).map(({ parent: _parent, ...row }) => ({
    ...row,
    parentId: row.depth === 0 ? undefined : row.parentId,
  }));
}

/** The contexts to list, most recently seen first, each once. */
export function contextsOf(known: readonly KnownTask[], limit = 20): string[] {
  const contexts: string[] = [];
  for (const task of [...known].sort((a, b) => b.seen - a.seen)) {
    if (!contexts.includes(task.contextId)) contexts.push(task.contextId);
    if (contexts.length >= limit) break;
  }
  return contexts;
}
