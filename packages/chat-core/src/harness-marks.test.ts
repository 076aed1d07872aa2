import { describe, expect, it } from 'vitest';
import { HARNESS_METADATA_KEY, isNote, isStoppedAnswer, noteKindOf } from './harness-marks.js';

describe('the harness marks', () => {
  it('reads a note and its kind', () => {
    const note = { metadata: { [HARNESS_METADATA_KEY]: { note: 'model-error' } } };
    expect(isNote(note)).toBe(true);
    expect(noteKindOf(note)).toBe('model-error');
    expect(isNote({ metadata: { [HARNESS_METADATA_KEY]: { title: 'x' } } })).toBe(false);
    expect(isNote({ metadata: undefined })).toBe(false);
  });

  it('reads a stopped answer, and nothing else as one', () => {
    expect(isStoppedAnswer({ metadata: { 'a2a-harness': { stopped: true } } })).toBe(true);
    expect(isStoppedAnswer({ metadata: { 'a2a-harness': { stopped: 'yes' } } })).toBe(false);
    expect(isStoppedAnswer({ metadata: { 'a2a-harness': [true] } })).toBe(false);
    expect(isStoppedAnswer(undefined)).toBe(false);
  });
});
