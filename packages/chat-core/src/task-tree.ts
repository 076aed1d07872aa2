/**
 * Tasks as a tree, the same in every client: each task is followed by the
 * tasks it started (sub-tasks and forks, SEMANTICS §7), indented one level
 * more, so a sub-task never shows above its parent.
 */

/** A task that may name the task it came from. */
export interface TreeTask {
  id: string;
  /** The task it was spawned or forked from. */
  parent?: string;
}

export interface TreeOptions<T> {
  /** The order of a task's children; the order they were given by default. */
  childOrder?: (a: T, b: T) => number;
}

/**
 * `tasks` in tree order, each with its depth (0 at the top). Top-level tasks
 * keep the order given. A task whose parent is not among `tasks` (or is
 * itself) is at the top; tasks caught in a cycle of parents are listed at the
 * top, after the others, so every task shows exactly once.
 */
export function taskTree<T extends TreeTask>(
  tasks: readonly T[],
  options: TreeOptions<T> = {},
): Array<T & { depth: number }> {
  const ids = new Set(tasks.map((task) => task.id));
  const children = new Map<string, T[]>();
  const roots: T[] = [];
  for (const task of tasks) {
    const parent = task.parent;
    if (parent !== undefined && parent !== task.id && ids.has(parent)) {
      const siblings = children.get(parent) ?? [];
      siblings.push(task);
      children.set(parent, siblings);
    } else {
      roots.push(task);
    }
  }

  const ordered: Array<T & { depth: number }> = [];
  const placed = new Set<string>();
  const place = (task: T, depth: number): void => {
    if (placed.has(task.id)) return;
    placed.add(task.id);
    ordered.push({ ...task, depth });
    const kids = children.get(task.id) ?? [];
    const sorted = options.childOrder ? kids.slice().sort(options.childOrder) : kids;
    for (const kid of sorted) place(kid, depth + 1);
  };
  for (const root of roots) place(root, 0);
  for (const task of tasks) place(task, 0);
  return ordered;
}
