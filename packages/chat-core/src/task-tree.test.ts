import { describe, expect, it } from 'vitest';
import { taskTree } from './task-tree.js';

const ids = (rows: Array<{ id: string; depth: number }>) =>
  rows.map((row) => `${'  '.repeat(row.depth)}${row.id}`);

describe('taskTree', () => {
  it('puts each sub-task under its parent, even when it comes first', () => {
    const rows = taskTree([
      { id: 'sub', parent: 'main' },
      { id: 'other' },
      { id: 'main' },
      { id: 'subsub', parent: 'sub' },
    ]);
    expect(ids(rows)).toEqual(['other', 'main', '  sub', '    subsub']);
  });

  it('keeps the order given at the top and among siblings, unless told otherwise', () => {
    const tasks = [
      { id: 'b', parent: 'root', n: 2 },
      { id: 'root', n: 0 },
      { id: 'a', parent: 'root', n: 1 },
    ];
    expect(ids(taskTree(tasks))).toEqual(['root', '  b', '  a']);
    expect(ids(taskTree(tasks, { childOrder: (x, y) => x.n - y.n }))).toEqual([
      'root',
      '  a',
      '  b',
    ]);
  });

  it('lists a task whose parent is missing or itself at the top, and every task of a cycle once', () => {
    const rows = taskTree([
      { id: 'orphan', parent: 'gone' },
      { id: 'self', parent: 'self' },
      { id: 'x', parent: 'y' },
      { id: 'y', parent: 'x' },
    ]);
    expect(ids(rows)).toEqual(['orphan', 'self', 'x', '  y']);
  });

  it('keeps the fields of each task', () => {
    expect(taskTree([{ id: 'a', title: 'A' }])).toEqual([{ id: 'a', title: 'A', depth: 0 }]);
  });
});
