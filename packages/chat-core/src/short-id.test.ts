import { describe, expect, it } from 'vitest';
import { shortTaskId } from './short-id.js';

describe('shortTaskId', () => {
  it('tells apart two UUIDv7 ids made in the same millisecond: the random tail', () => {
    const task = '019ade2f-4c1a-7b3e-9f00-3a1b2c3d4e5f';
    const subTask = '019ade2f-4c1a-7d21-8a77-90ab12cd34ef';
    expect(shortTaskId(task)).toBe('2c3d4e5f');
    expect(shortTaskId(subTask)).toBe('12cd34ef');
  });

  it('skips the dashes, so a tail cut by one still has 8 hex digits', () => {
    expect(shortTaskId('019ade2f-4c1a-7b3e-9f00-0000003a1b2c')).toBe('003a1b2c');
    expect(shortTaskId('aaaaaaaa-bbbb-cccc-dddd-eeeeeeee-fff')).toBe('eeeeefff');
  });

  it('keeps the last 8 characters of an id of another form, and a short id whole', () => {
    expect(shortTaskId('task-000123456789')).toBe('23456789');
    expect(shortTaskId('t1')).toBe('t1');
  });
});
