import { describe, expect, it } from 'vitest';
import { newTaskId } from './task-ids.js';

describe('newTaskId', () => {
  it('is a version 7 UUID with the RFC 9562 variant', () => {
    expect(newTaskId()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('starts with the time in milliseconds, so ids sort by creation time', async () => {
    const before = Date.now();
    const first = newTaskId();
    await new Promise((resolve) => setTimeout(resolve, 3));
    const second = newTaskId();
    const millis = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(millis(first)).toBeGreaterThanOrEqual(before);
    expect(millis(first)).toBeLessThanOrEqual(Date.now());
    expect(second > first).toBe(true);
  });

  it('differs from call to call within a millisecond', () => {
    const ids = new Set(Array.from({ length: 1000 }, newTaskId));
    expect(ids.size).toBe(1000);
  });
});
