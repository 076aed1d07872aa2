import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { takeJoined, wakeFairly } from './fair-fan-out.js';
import { answerChunk, status, statusEvent } from './turn-events.js';

const task = { id: 't', contextId: 'c' };
const chunk = (text: string, first: boolean, last = false, turnId = 'm1') => ({
  event: answerChunk(task, turnId, text, { first, last }),
  turnId,
  final: false,
});
const textOf = (event: { event: StreamResponse }) => {
  const payload = event.event.payload;
  if (payload?.$case !== 'artifactUpdate') return undefined;
  const content = payload.value.artifact?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
};

describe('takeJoined', () => {
  it('joins the answer chunks queued behind the first, and stops at anything else', () => {
    const final = {
      event: statusEvent(task, status(TaskState.TASK_STATE_INPUT_REQUIRED)),
      turnId: 'm1',
      final: true,
    };
    const buffered = [
      chunk('a', true),
      chunk('b', false),
      chunk('c', false),
      final,
      chunk('d', false),
    ];
    const first = takeJoined(buffered)!;
    expect(textOf(first)).toBe('abc');
    const payload = first.event.payload;
    expect(payload?.$case === 'artifactUpdate' && payload.value.append).toBe(false);
    expect(takeJoined(buffered)).toBe(final);
    expect(textOf(takeJoined(buffered)!)).toBe('d');
    expect(takeJoined(buffered)).toBeUndefined();
  });

  it('does not join across turns or past a last chunk', () => {
    const buffered = [chunk('a', false, true), chunk('b', false), chunk('c', false, false, 'm2')];
    expect(textOf(takeJoined(buffered)!)).toBe('a');
    expect(textOf(takeJoined(buffered)!)).toBe('b');
    expect(textOf(takeJoined(buffered)!)).toBe('c');
  });
});

describe('wakeFairly', () => {
  it('wakes everyone, in order, in batches that let other work run in between', async () => {
    const woken: number[] = [];
    let lastWoken!: () => void;
    const allWoken = new Promise<void>((resolve) => (lastWoken = resolve));
    for (let i = 0; i < 200; i++)
      wakeFairly(() => {
        woken.push(i);
        if (i === 199) lastWoken();
      });
    expect(woken).toEqual([]);
    // Queued after the first batch: it runs before the rest are woken.
    const between = await new Promise<number>((resolve) =>
      setImmediate(() => resolve(woken.length)),
    );
    expect(between).toBeGreaterThan(0);
    expect(between).toBeLessThan(200);
    await allWoken;
    expect(woken).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });
});
