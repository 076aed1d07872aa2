import { describe, expect, it } from 'vitest';
import type { KnownTask } from '../src/a2a/known-tasks.js';
import { contextsOf, taskRows, UNTITLED } from '../src/a2a/task-list.js';
import { task } from './fixtures.js';

function listed(
  id: string,
  stamp: string,
  options: { title?: string; parent?: string; contextId?: string; state?: number } = {},
) {
  const metadata: Record<string, unknown> = {};
  if (options.title) metadata['a2a-harness'] = { title: options.title };
  if (options.parent) metadata['a2a-commands'] = { parent: options.parent };
  return {
    ...task(options.state ?? 6, [], metadata),
    id,
    contextId: options.contextId ?? 'ctx-1',
    status: { state: options.state ?? 6, message: undefined, timestamp: stamp },
  };
}

describe('taskRows: the sidebar', () => {
  const known: KnownTask[] = [
    { id: 'a', contextId: 'ctx-1', title: 'first prompt', seen: 1 },
    { id: 'lost', contextId: 'ctx-2', title: 'not listed', seen: 5 },
  ];

  it('lists the listed tasks and the known ones the listing missed, newest first', () => {
    const rows = taskRows(known, [
      listed('a', '2026-01-01T00:00:01Z'),
      listed('b', '2026-01-01T00:00:03Z', { title: 'Second' }),
    ]);
    expect(rows.map((row) => [row.id, row.title, row.depth])).toEqual([
      ['b', 'Second', 0],
      ['a', 'first prompt', 0],
      ['lost', 'not listed', 0],
    ]);
    expect(rows[0]!.state).toBe(6);
    expect(rows[2]!.state).toBeUndefined();
  });

  it("takes the agent's title over the first prompt, and says untitled when there is neither", () => {
    const rows = taskRows(
      [{ id: 'a', contextId: 'ctx-1', title: 'prompt', seen: 1 }],
      [
        listed('a', '2026-01-01T00:00:01Z', { title: 'Named' }),
        listed('c', '2026-01-01T00:00:00Z'),
      ],
    );
    expect(rows.map((row) => row.title)).toEqual(['Named', UNTITLED]);
  });

  it('puts sub-tasks under their parent, oldest first, indented', () => {
    const rows = taskRows(
      [],
      [
        listed('sub-2', '2026-01-01T00:00:09Z', { parent: 'p' }),
        listed('p', '2026-01-01T00:00:01Z'),
        listed('other', '2026-01-01T00:00:05Z'),
        listed('sub-1', '2026-01-01T00:00:08Z', { parent: 'p' }),
        listed('subsub', '2026-01-01T00:00:10Z', { parent: 'sub-1' }),
      ],
    );
    expect(rows.map((row) => [row.id, row.depth])).toEqual([
      ['other', 0],
      ['p', 0],
      ['sub-1', 1],
      ['subsub', 2],
      ['sub-2', 1],
    ]);
  });

  it('a sub-task whose parent is not listed stands at the top level', () => {
    const rows = taskRows([], [listed('orphan', '2026-01-01T00:00:01Z', { parent: 'gone' })]);
    expect(rows).toMatchObject([{ id: 'orphan', depth: 0, parentId: undefined }]);
  });

  it('survives a cycle of parents and lists each task once', () => {
    const rows = taskRows(
      [],
      [
        listed('x', '2026-01-01T00:00:01Z', { parent: 'y' }),
        listed('y', '2026-01-01T00:00:02Z', { parent: 'x' }),
      ],
    );
    expect(rows.map((row) => row.id).sort()).toEqual(['x', 'y']);
  });
});

describe('contextsOf', () => {
  it('lists each context once, most recently seen first', () => {
    expect(
      contextsOf([
        { id: 'a', contextId: 'c1', seen: 1 },
        { id: 'b', contextId: 'c2', seen: 3 },
        { id: 'c', contextId: 'c1', seen: 2 },
      ]),
    ).toEqual(['c2', 'c1']);
  });
});
