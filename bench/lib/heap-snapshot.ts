import { readFileSync } from 'node:fs';

/** Objects of one constructor (or V8 node type) in a heap snapshot: how many, and their own bytes. */
export interface HeapGroup {
  count: number;
  selfBytes: number;
}

interface SnapshotFile {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/**
 * A V8 heap snapshot summed by constructor, as DevTools' summary view groups
 * it: objects and closures by name, everything else by its node type.
 */
export function heapByConstructor(file: string): Map<string, HeapGroup> {
  const data = JSON.parse(readFileSync(file, 'utf8')) as SnapshotFile;
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const stride = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, HeapGroup>();
  for (let i = 0; i < data.nodes.length; i += stride) {
    const type = types[data.nodes[i + typeAt]!]!;
    const key =
      type === 'object' || type === 'closure'
        ? `${data.strings[data.nodes[i + nameAt]!]}${type === 'closure' ? ' (closure)' : ''}`
        : `(${type})`;
    const group = groups.get(key) ?? { count: 0, selfBytes: 0 };
    group.count++;
    group.selfBytes += data.nodes[i + sizeAt]!;
    groups.set(key, group);
  }
  return groups;
}

/** The groups that grew most from `before` to `after`, by bytes. */
export function heapGrowth(
  before: Map<string, HeapGroup>,
  after: Map<string, HeapGroup>,
  top = 20,
): { name: string; count: number; bytes: number; countAfter: number; bytesAfter: number }[] {
  return [...after]
    .map(([name, group]) => {
      const earlier = before.get(name) ?? { count: 0, selfBytes: 0 };
      return {
        name,
        count: group.count - earlier.count,
        bytes: group.selfBytes - earlier.selfBytes,
        countAfter: group.count,
        bytesAfter: group.selfBytes,
      };
    })
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, top);
}

/** The total of a snapshot's own bytes. */
export function heapTotal(groups: Map<string, HeapGroup>): number {
  let total = 0;
  for (const group of groups.values()) total += group.selfBytes;
  return total;
}
