import { describe, expect, it } from 'vitest';
import { newer, older, remember, EMPTY_HISTORY } from './input-history.js';
import {
  backspace,
  deleteWordBack,
  insert,
  killToEnd,
  killToStart,
  left,
  lineOf,
  right,
} from './line-editor.js';

describe('line editor', () => {
  it('moves and deletes over a surrogate pair as one character', () => {
    const line = lineOf('a🎉');
    expect(backspace(line)).toEqual({ text: 'a', cursor: 1 });
    expect(left(line).cursor).toBe(1);
    expect(right(left(line)).cursor).toBe(3);
  });

  it('Ctrl+W, Ctrl+U and Ctrl+K', () => {
    const line = { text: 'one two  three', cursor: 9 };
    expect(deleteWordBack(line)).toEqual({ text: 'one three', cursor: 4 });
    expect(killToStart(line)).toEqual({ text: 'three', cursor: 0 });
    expect(killToEnd(line)).toEqual({ text: 'one two  ', cursor: 9 });
  });

  it('insert sanitizes: no escape sequence gets into the input', () => {
    expect(insert(lineOf('x'), '\u001b[2Jy\u0007').text).toBe('xy');
  });
});

describe('input history', () => {
  it('does not repeat the same input twice in a row', () => {
    const history = remember(remember(EMPTY_HISTORY, 'a'), 'a');
    expect(history.items).toEqual(['a']);
  });

  it('stops at the oldest, and Down past the newest gives the draft back', () => {
    let history = remember(remember(EMPTY_HISTORY, 'a'), 'b');
    let step = older(history, 'draft');
    expect(step.text).toBe('b');
    step = older(step.history, step.text);
    expect(step.text).toBe('a');
    step = older(step.history, step.text);
    expect(step.text).toBe('a');
    history = step.history;
    step = newer(history, 'a');
    step = newer(step.history, step.text);
    expect(step.text).toBe('draft');
    expect(newer(step.history, 'draft').text).toBe('draft');
  });
});
