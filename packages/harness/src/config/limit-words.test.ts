import { describe, expect, it } from 'vitest';
import { ModelTimeoutError } from '../models/errors.js';
import { limitWords } from './limit-words.js';

describe('a turn ended by a model timeout', () => {
  it('says the limit in a person’s words, with its length, and names no config key', () => {
    const notes = [
      new ModelTimeoutError('firstByteMs', 'openai/gpt-4o', 60_000).message,
      new ModelTimeoutError('idleMs', 'openai/gpt-4o', 400).message,
      new ModelTimeoutError('totalMs', 'openai/gpt-4o', 600_000).message,
    ];
    expect(notes).toEqual([
      'model openai/gpt-4o sent nothing for 1 min after it was called, so the turn was ended: a model may take at most 1 min to start its answer.',
      'model openai/gpt-4o stopped sending for 400 ms in the middle of its answer, so the turn was ended: a model may pause at most 400 ms within an answer.',
      'model openai/gpt-4o was still answering after 10 min, so the turn was ended: an answer may take at most 10 min.',
    ]);
    for (const note of notes) expect(note).not.toMatch(/limit:|firstByteMs|idleMs|totalMs/);
  });

  it('says a length in the unit it is set in: minutes, seconds, or milliseconds', () => {
    expect(limitWords.modelTimeout('totalMs', 'offline/echo', 90_000)).toContain('90 s');
    expect(limitWords.modelTimeout('totalMs', 'offline/echo', 120_000)).toContain('2 min');
    expect(limitWords.modelTimeout('firstByteMs', 'offline/echo', 2_500)).toContain('2500 ms');
  });
});
