import { estimateRows } from './windowing.js';

/** The part of the input to draw: `[start, end)` of the text, and what is left out around it. */
export interface InputWindow {
  start: number;
  end: number;
  /** Lines (or, inside one long line, characters) hidden before and after. */
  hiddenBefore: boolean;
  hiddenAfter: boolean;
}

/**
 * A long input (a big paste) would push everything else off the screen; the
 * composer draws at most `maxRows` rows of it, around the cursor.
 */
export function inputWindow(
  text: string,
  cursor: number,
  width: number,
  maxRows: number,
): InputWindow {
  const columns = Math.max(1, width);
  if (estimateRows(text, columns) <= maxRows) {
    return { start: 0, end: text.length, hiddenBefore: false, hiddenAfter: false };
  }
  const lineStart = text.lastIndexOf('\n', cursor - 1) + 1;
  const newline = text.indexOf('\n', cursor);
  const lineEnd = newline === -1 ? text.length : newline;
  const budget = maxRows * columns;
  if (estimateRows(text.slice(lineStart, lineEnd), columns) >= maxRows) {
    // One line longer than the window: the characters around the cursor.
    const start = Math.max(lineStart, Math.min(cursor - Math.floor(budget / 2), lineEnd - budget));
    const end = Math.min(lineEnd, start + budget - 1);
    return { start, end, hiddenBefore: start > 0, hiddenAfter: end < text.length };
  }
  let start = lineStart;
  let end = lineEnd;
  let rows = estimateRows(text.slice(start, end), columns);
  for (let grew = true; grew;) {
    grew = false;
    if (end < text.length) {
      const next = text.indexOf('\n', end + 1);
      const nextEnd = next === -1 ? text.length : next;
      const added = estimateRows(text.slice(end + 1, nextEnd), columns);
      if (rows + added <= maxRows) [end, rows, grew] = [nextEnd, rows + added, true];
    }
    if (start > 0) {
      const previous = text.lastIndexOf('\n', start - 2) + 1;
      const added = estimateRows(text.slice(previous, start - 1), columns);
      if (rows + added <= maxRows) [start, rows, grew] = [previous, rows + added, true];
    }
  }
  return { start, end, hiddenBefore: start > 0, hiddenAfter: end < text.length };
}
