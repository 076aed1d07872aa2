import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerChunker } from './answer-chunks.js';

describe('AnswerChunker', () => {
  let now = 0;
  let sent: { text: string; first: boolean }[];
  const chunker = (flushMs: number, flushChars = 1000) =>
    new AnswerChunker(
      (text, first) => sent.push({ text, first }),
      { flushMs, flushChars },
      () => now,
    );

  beforeEach(() => {
    vi.useFakeTimers();
    now = 0;
    sent = [];
  });
  afterEach(() => vi.useRealTimers());

  it('sends the first delta at once, so the first token is not delayed', () => {
    chunker(30).push('Hello');
    expect(sent).toEqual([{ text: 'Hello', first: true }]);
  });

  it('groups the deltas of one window into one update, sent when the window closes', () => {
    const c = chunker(30);
    c.push('a');
    now = 10;
    c.push('b');
    now = 20;
    c.push('c');
    expect(sent).toHaveLength(1);
    now = 30;
    vi.advanceTimersByTime(30);
    expect(sent).toEqual([
      { text: 'a', first: true },
      { text: 'bc', first: false },
    ]);
  });

  it('sends at once when enough characters wait, whatever the window', () => {
    const c = chunker(30, 5);
    c.push('a');
    now = 1;
    c.push('bcdef');
    expect(sent.map((s) => s.text)).toEqual(['a', 'bcdef']);
  });

  it('with flushMs 0 sends every delta as it comes', () => {
    const c = chunker(0);
    for (const delta of ['a', 'b', 'c']) c.push(delta);
    expect(sent.map((s) => s.text)).toEqual(['a', 'b', 'c']);
  });

  it('close sends what waits; the chunks add up to the whole text', () => {
    const c = chunker(30);
    c.push('one ');
    now = 5;
    c.push('two ');
    c.push('three');
    expect(c.close()).toBe(true);
    expect(sent.map((s) => s.text).join('')).toBe('one two three');
    expect(c.text).toBe('one two three');
  });

  it('discard sends nothing more, but keeps the text so far (a stopped turn stores it)', () => {
    const c = chunker(30);
    c.push('kept ');
    now = 5;
    c.push('unsent');
    c.discard();
    vi.advanceTimersByTime(100);
    expect(sent.map((s) => s.text)).toEqual(['kept ']);
    expect(c.text).toBe('kept unsent');
  });

  it('close on a turn that wrote nothing says no chunk went out', () => {
    expect(chunker(30).close()).toBe(false);
    expect(sent).toEqual([]);
  });
});
