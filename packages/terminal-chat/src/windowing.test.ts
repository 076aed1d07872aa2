import { describe, expect, it } from 'vitest';
import { commandReply } from 'a2a-chat-core/testing';
import { applyEvent, type Entry } from './transcript.js';

function userEntry(text: string): Entry {
  return { kind: 'user', key: crypto.randomUUID(), text, pending: false };
}

function noticeEntry(text: string): Entry {
  return { kind: 'note', key: crypto.randomUUID(), text, tone: 'info', from: 'client' };
}
import { inputWindow } from './input-window.js';
import { estimateRows, visibleTail } from './windowing.js';

describe('estimateRows', () => {
  it('counts each line, wrapped at the width', () => {
    expect(estimateRows('short', 10)).toBe(1);
    expect(estimateRows('x'.repeat(25), 10)).toBe(3);
    expect(estimateRows('a\n\nb', 10)).toBe(3);
  });
});

describe('visibleTail', () => {
  const entries: Entry[] = Array.from({ length: 100 }, (_, i) => userEntry(`message ${i}`));

  it('keeps the newest entries that fill the rows, not the whole session', () => {
    const shown = visibleTail(entries, 80, 20);
    expect(shown.at(-1)!.text).toBe('message 99');
    expect(shown).toHaveLength(10); // each takes its line and a blank line above
  });

  it('cuts one huge answer to its last rows, marked with …', () => {
    const huge = userEntry(Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    const [shown] = visibleTail([huge], 80, 30);
    const lines = shown!.text.split('\n');
    expect(lines[0]).toBe('…');
    expect(lines.at(-1)).toBe('line 4999');
    expect(lines.length).toBeGreaterThanOrEqual(29);
    expect(lines.length).toBeLessThan(40);
  });

  it('never cuts a command reply: its list stays whole', () => {
    const reply = applyEvent([], commandReply('help', Array(50).fill('row').join('\n')));
    const shown = visibleTail([...reply, noticeEntry('after')], 80, 5);
    expect(shown[0]).toBe(reply[0]);
  });
});

describe('inputWindow', () => {
  it('keeps a short input whole', () => {
    expect(inputWindow('hello', 5, 80, 3)).toEqual({
      start: 0,
      end: 5,
      hiddenBefore: false,
      hiddenAfter: false,
    });
  });

  it('shows whole lines around the cursor', () => {
    const text = ['a', 'b', 'c', 'd', 'e'].join('\n');
    const cursor = text.indexOf('c');
    const shown = inputWindow(text, cursor, 80, 3);
    expect(text.slice(shown.start, shown.end)).toBe('b\nc\nd');
    expect(shown).toMatchObject({ hiddenBefore: true, hiddenAfter: true });
  });

  it('cuts one very long line around the cursor', () => {
    const text = 'x'.repeat(1000) + 'CURSOR' + 'y'.repeat(1000);
    const shown = inputWindow(text, 1003, 20, 2);
    expect(shown.end - shown.start).toBeLessThanOrEqual(40);
    expect(text.slice(shown.start, shown.end)).toContain('CUR');
  });
});
