import { describe, expect, it } from 'vitest';
import { closeMatches, editDistance, MAX_SUGGESTION_QUERY_CHARS } from './suggest.js';

/** An edit distance that tallies its work: the cells of the table it fills. */
function countingDistance() {
  const counter = {
    cells: 0,
    distance: (a: string, b: string) => {
      counter.cells += (a.length + 1) * (b.length + 1);
      return editDistance(a, b);
    },
  };
  return counter;
}

const names = Array.from({ length: 2000 }, (_, i) => `command-${i}`);

describe('closeMatches bounds its work by length', () => {
  it('computes no edit distance for a 10,000-character name', () => {
    const counter = countingDistance();
    expect(closeMatches('x'.repeat(10_000), names, 3, counter.distance)).toEqual([]);
    expect(counter.cells).toBe(0);
  });

  it('skips candidates whose length alone puts them out of reach', () => {
    const counter = countingDistance();
    const typed = 'y'.repeat(MAX_SUGGESTION_QUERY_CHARS);
    expect(closeMatches(typed, names, 3, counter.distance)).toEqual([]);
    expect(counter.cells).toBe(0);
  });

  it('still finds the close names', () => {
    const counter = countingDistance();
    expect(closeMatches('comand-12', names, 3, counter.distance)).toContain('command-12');
    expect(counter.cells).toBeGreaterThan(0);
  });
});
