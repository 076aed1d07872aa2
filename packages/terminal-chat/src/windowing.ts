import { choicesOf, PICKER_ROWS } from './choices.js';
import type { Entry } from './transcript.js';

/*
 * ink lays out and draws every element it is given, on every frame. A long
 * session or a long reply would make each keystroke slower; so the transcript
 * gets only the entries that can be on screen (plus some), estimated from
 * their text, and the oldest of those only the lines it needs.
 */

/** Rows `text` takes at `width` columns, counting characters: never more than ink draws. */
export function estimateRows(text: string, width: number): number {
  let rows = 0;
  for (const line of text.split('\n')) rows += Math.max(1, Math.ceil(line.length / width));
  return rows;
}

function entryRows(entry: Entry, width: number): number {
  const text = estimateRows(entry.text, width) + 1; // its blank line above
  if (entry.kind !== 'reply') return text;
  const set = choicesOf(entry);
  const picker = set ? Math.min(set.choices.length, PICKER_ROWS) + 2 : 0;
  return text + 1 + picker + (entry.taskRef ? 1 : 0);
}

/** The last lines of `text` that make at least `rows` rows. */
function tailRows(text: string, width: number, rows: number): string {
  const lines = text.split('\n');
  let kept = 0;
  let start = lines.length;
  while (start > 0 && kept < rows) kept += estimateRows(lines[--start]!, width);
  return lines.slice(start).join('\n');
}

/**
 * The newest entries that fill at least `rows` rows at `width`. When the
 * oldest of them would overshoot, its text is cut to the rows still needed,
 * marked with `…`. Command replies are never cut: their lists stay whole.
 */
export function visibleTail(entries: readonly Entry[], width: number, rows: number): Entry[] {
  const columns = Math.max(1, width);
  let used = 0;
  let start = entries.length;
  while (start > 0 && used < rows) used += entryRows(entries[--start]!, columns);
  const shown = entries.slice(start);
  const first = shown[0];
  if (first && first.kind !== 'reply' && used > rows) {
    const needed = rows - (used - entryRows(first, columns)) - 1;
    const text = tailRows(first.text, columns, Math.max(1, needed));
    if (text !== first.text) shown[0] = { ...first, text: `…\n${text}` };
  }
  return shown;
}
