import { describe, expect, it } from 'vitest';
import { SeenNotices } from './seen-notices.js';

describe('SeenNotices', () => {
  it('knows a copy of a notice by its sender and serial', () => {
    const seen = new SeenNotices();
    expect(seen.firstTime('a', 1)).toBe(true);
    expect(seen.firstTime('a', 2)).toBe(true);
    expect(seen.firstTime('b', 1)).toBe(true);
    expect(seen.firstTime('a', 1)).toBe(false);
    expect(seen.firstTime('b', 1)).toBe(false);
    // Out of order is not a copy: notices sent inside writes commit in their own order.
    expect(seen.firstTime('a', 0)).toBe(true);
  });

  it('keeps a bounded window per sender, and a bounded number of senders', () => {
    const seen = new SeenNotices(3, 2);
    for (const serial of [1, 2, 3, 4]) seen.firstTime('a', serial);
    expect(seen.firstTime('a', 4)).toBe(false);
    // Forgotten: past the window.
    expect(seen.firstTime('a', 1)).toBe(true);
    seen.firstTime('b', 1);
    seen.firstTime('c', 1);
    // 'a' was heard least recently, so it went.
    expect(seen.firstTime('a', 4)).toBe(true);
    expect(seen.firstTime('c', 1)).toBe(false);
  });
});
