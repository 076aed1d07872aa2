import { sanitizeText } from './sanitize.js';

/** The composer's text and the cursor in it (a UTF-16 index, never inside a grapheme). */
export interface Line {
  text: string;
  cursor: number;
}

export const EMPTY_LINE: Line = { text: '', cursor: 0 };

export function lineOf(text: string): Line {
  return { text, cursor: text.length };
}

// What a person sees as one character: a family emoji, a flag, a letter and its accent.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Where the grapheme before `index` starts. */
function previous(text: string, index: number): number {
  if (index <= 0) return 0;
  return graphemes.segment(text).containing(index - 1)?.index ?? index - 1;
}

/** Where the grapheme at `index` ends. */
function next(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const segment = graphemes.segment(text).containing(index);
  return segment ? segment.index + segment.segment.length : index + 1;
}

/**
 * Typed or pasted text at the cursor. A paste arrives as one chunk, CRs and
 * all: line breaks are kept as LF and escape sequences are dropped.
 */
export function insert(line: Line, typed: string): Line {
  const clean = sanitizeText(typed);
  if (clean === '') return line;
  const text = line.text.slice(0, line.cursor) + clean + line.text.slice(line.cursor);
  return { text, cursor: line.cursor + clean.length };
}

export function backspace(line: Line): Line {
  if (line.cursor === 0) return line;
  const start = previous(line.text, line.cursor);
  return { text: line.text.slice(0, start) + line.text.slice(line.cursor), cursor: start };
}

export function deleteForward(line: Line): Line {
  if (line.cursor >= line.text.length) return line;
  const end = next(line.text, line.cursor);
  return { text: line.text.slice(0, line.cursor) + line.text.slice(end), cursor: line.cursor };
}

export function left(line: Line): Line {
  return { ...line, cursor: previous(line.text, line.cursor) };
}

export function right(line: Line): Line {
  return { ...line, cursor: next(line.text, line.cursor) };
}

export function home(line: Line): Line {
  return { ...line, cursor: 0 };
}

export function end(line: Line): Line {
  return { ...line, cursor: line.text.length };
}

/** Ctrl+Left, Alt+Left, Alt+B: to the start of this word or the one before. */
export function wordLeft(line: Line): Line {
  let cursor = line.cursor;
  while (cursor > 0 && /\s/.test(line.text[cursor - 1]!)) cursor--;
  while (cursor > 0 && !/\s/.test(line.text[cursor - 1]!)) cursor--;
  return { ...line, cursor };
}

/** Ctrl+Right, Alt+Right, Alt+F: to the end of this word or the next. */
export function wordRight(line: Line): Line {
  let cursor = line.cursor;
  while (cursor < line.text.length && /\s/.test(line.text[cursor]!)) cursor++;
  while (cursor < line.text.length && !/\s/.test(line.text[cursor]!)) cursor++;
  return { ...line, cursor };
}

/** Ctrl+W, Alt+Backspace: the word before the cursor, and the spaces after it. */
export function deleteWordBack(line: Line): Line {
  let start = line.cursor;
  while (start > 0 && /\s/.test(line.text[start - 1]!)) start--;
  while (start > 0 && !/\s/.test(line.text[start - 1]!)) start--;
  return { text: line.text.slice(0, start) + line.text.slice(line.cursor), cursor: start };
}

/** Ctrl+U: everything before the cursor. */
export function killToStart(line: Line): Line {
  return { text: line.text.slice(line.cursor), cursor: 0 };
}

/** Ctrl+K: everything after the cursor. */
export function killToEnd(line: Line): Line {
  return { text: line.text.slice(0, line.cursor), cursor: line.cursor };
}
