import { describe, expect, it } from 'vitest';
import type { Entry } from './entries.js';
import { keepShownAnswer } from './keep-shown-answer.js';

const prompt: Entry = { kind: 'user', key: 'm1', text: 'tell me', pending: false };
const partial: Entry = {
  kind: 'agent',
  key: 'artifact:answer-m1',
  text: 'Once upon a time there',
  streaming: true,
  preview: true,
};
const interrupted: Entry = {
  kind: 'note',
  key: 'n1',
  text: 'This turn was interrupted.',
  tone: 'warn',
  from: 'agent',
};

describe('keepShownAnswer', () => {
  it('puts the answer shown back after its prompt when the task read again lacks it', () => {
    const entries = keepShownAnswer([prompt, partial], [prompt, interrupted]);
    expect(entries.map((entry) => entry.key)).toEqual(['m1', 'artifact:answer-m1', 'n1']);
    expect(entries[1]).toMatchObject({ text: 'Once upon a time there', incomplete: true });
    expect(entries[1]).toMatchObject({ streaming: false });
  });

  it('keeps the longer text when the task has less of the same answer', () => {
    const stored: Entry = { ...partial, text: 'Once upon', streaming: false };
    const entries = keepShownAnswer([prompt, partial], [prompt, stored]);
    expect(entries).toHaveLength(2);
    expect(entries[1]!.text).toBe('Once upon a time there');
  });

  it('changes nothing when the task has the answer, or more of it', () => {
    const whole: Entry = { ...partial, key: 'm2', text: 'Once upon a time there was a fox.' };
    expect(keepShownAnswer([prompt, partial], [prompt, whole])).toEqual([prompt, whole]);
    expect(keepShownAnswer([prompt], [prompt, interrupted])).toEqual([prompt, interrupted]);
  });
});
