/* eslint-disable no-control-regex -- matching escape sequences is this file's job */
import { PassThrough } from 'node:stream';
import { sanitizeText } from './sanitize.js';

/*
 * ink 6 throws, from inside its stdin listener, on a CSI sequence it cannot
 * name when the sequence's parameter looks like a Ctrl modifier: a pasted
 * `ESC[31m`, or Ctrl+F1's `ESC[1;5P`. That would crash the chat. So keys pass
 * through this filter first: it keeps the sequences ink knows (arrows, Home,
 * End, PgUp, F-keys, Shift+Tab, ...) and drops every other CSI sequence.
 */

/** CSI key codes ink's parser names (its keyName table, without the leading ESC). */
const KNOWN_CODES = new Set([
  ...['[A', '[B', '[C', '[D', '[E', '[F', '[H', '[Z', '[a', '[b', '[c', '[d', '[e'],
  ...['1', '2', '3', '4', '5', '6', '7', '8'].map((n) => `[${n}~`),
  ...['11', '12', '13', '14', '15', '17', '18', '19', '20', '21', '23', '24'].map((n) => `[${n}~`),
  ...['2', '3', '5', '6', '7', '8'].flatMap((n) => [`[${n}$`, `[${n}^`]),
]);

/** An optional ESC (Alt), then a CSI sequence, or the legacy `ESC [ [ X` forms. */
const CSI = /\u001b?\u001b\[(?:\[(?:[A-E]|[56]~)|[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e])/g;

/** A CSI sequence cut off at the end of a read. */
const PARTIAL_CSI = /\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*$/;

function known(sequence: string): boolean {
  const body = sequence.replace(/^\u001b+/, '');
  if (body.startsWith('[[')) return true;
  if (body.includes(':')) return false;
  const numbered = /^\[(\d+)(?:;\d+)?([~^$])$/.exec(body);
  if (numbered) return KNOWN_CODES.has(`[${numbered[1]}${numbered[2]}`);
  const lettered = /^\[(?:1;)?\d*([a-zA-Z])$/.exec(body);
  if (lettered) return lettered[1] === 'u' || KNOWN_CODES.has(`[${lettered[1]}`);
  return false;
}

/** `text` without the CSI sequences ink cannot parse safely. */
export function filterKeys(text: string): string {
  return text.replace(CSI, (sequence) => (known(sequence) ? sequence : ''));
}

/**
 * A run of text and escape sequences (an ESC with whatever follows it, as
 * Alt+Backspace's ESC DEL), or else one control key: Ctrl+C, Ctrl+U,
 * Backspace, ... Enter, Tab and line feed belong to the text (a pasted line).
 */
const KEY_OR_RUN =
  /(?:\u001b[\s\S]|[^\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f])+|[\s\S]/g;

/** The same, with Enter, Tab and line feed keys of their own: in a terminal that marks its pastes. */
const KEY_OR_TYPED_RUN = /(?:\u001b[\s\S]|[^\u0000-\u001a\u001c-\u001f\u007f])+|[\s\S]/g;

/**
 * A read cut into what ink must see apart. ink splits a read at escape
 * sequences only, so two Ctrl+C in one read would reach it as the text
 * `\x03\x03`, and Ctrl+U before typed text as part of that text. Each control
 * key is its own piece; text between them stays whole. Where the terminal may
 * paste without saying so, a run's Enter and Tab stay in it (a paste, line
 * breaks and all); once it marks its pastes (`pastesMarked`), every unmarked
 * Enter and Tab was typed, and is a key of its own.
 */
export function splitKeys(text: string, pastesMarked = false): string[] {
  return text.match(pastesMarked ? KEY_OR_TYPED_RUN : KEY_OR_RUN) ?? [];
}

/*
 * Bracketed paste: the chat asks the terminal (`ESC[?2004h`) to wrap what is
 * pasted in `ESC[200~` ... `ESC[201~`. A paste then reaches ink as one piece
 * that starts with PASTED, a private-use character no key sends, so the
 * composer inserts it as text: its Enter does not send and its Tab does not
 * complete.
 */
export const BRACKETED_PASTE_ON = '\u001b[?2004h';
export const BRACKETED_PASTE_OFF = '\u001b[?2004l';
const PASTE_START = '\u001b[200~';
const PASTE_END = '\u001b[201~';
const PASTED = '\ue000';

/** The text of a piece the terminal marked as pasted; `undefined` for keys. */
export function pastedText(piece: string): string | undefined {
  return piece.startsWith(PASTED) ? piece.slice(PASTED.length) : undefined;
}

/** How long a paste whose end marker has not come waits for more, before it is taken as it is. */
const PASTE_WAIT_MS = 1000;

/** How long a cut-off sequence waits for the rest before it is passed on as typed. */
const PARTIAL_WAIT_MS = 30;

export interface FilteredInput {
  /** Give this to ink as `stdin`. */
  stream: NodeJS.ReadStream;
  /** Stops reading the terminal. */
  close(): void;
}

/** A terminal input stream that ink reads instead of `source`, with `filterKeys` applied. */
export function filteredInput(source: NodeJS.ReadStream): FilteredInput {
  const out = new PassThrough({ encoding: 'utf8' });
  const stream = Object.assign(out, {
    isTTY: source.isTTY,
    setRawMode(mode: boolean) {
      source.setRawMode?.(mode);
      return stream;
    },
    ref() {
      source.ref();
      return stream;
    },
    unref() {
      source.unref();
      return stream;
    },
  });
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  /** What a paste has brought so far, until its end marker. */
  let paste: string | undefined;
  let pasteTimer: NodeJS.Timeout | undefined;
  let pastesMarked = false;
  // ink reads everything buffered at once: a piece is written only after ink has read the last.
  const queue: string[] = [];
  let draining: NodeJS.Immediate | undefined;
  const drain = () => {
    draining = undefined;
    const piece = queue.shift();
    if (piece === undefined) return;
    out.write(piece);
    draining = setImmediate(drain);
  };
  const queuePieces = (pieces: string[]) => {
    queue.push(...pieces);
    if (draining === undefined) drain();
  };
  const pass = (text: string) => queuePieces(splitKeys(text, pastesMarked));
  const flush = () => {
    if (pending !== '') pass(pending);
    pending = '';
  };
  const typed = (text: string, endOfRead: boolean) => {
    const partial = endOfRead ? PARTIAL_CSI.exec(text) : null;
    if (partial) {
      pending = text.slice(partial.index);
      text = text.slice(0, partial.index);
      timer = setTimeout(flush, PARTIAL_WAIT_MS);
    }
    const kept = filterKeys(text);
    if (kept !== '') pass(kept);
  };
  const endPaste = (end: number, markerLength: number): string => {
    clearTimeout(pasteTimer);
    const text = sanitizeText(paste!.slice(0, end), { keepTabs: true });
    const after = paste!.slice(end + markerLength);
    paste = undefined;
    if (text !== '') queuePieces([PASTED + text]);
    return after;
  };
  // A terminal that never sends the end marker: what came is the paste, and reading goes on.
  const pasteTimedOut = () => endPaste(paste!.length, 0);
  const onData = (chunk: Buffer | string) => {
    clearTimeout(timer);
    let text = pending + String(chunk);
    pending = '';
    for (;;) {
      if (paste !== undefined) {
        const searchFrom = Math.max(0, paste.length - PASTE_END.length + 1);
        paste += text;
        const end = paste.indexOf(PASTE_END, searchFrom);
        if (end === -1) {
          clearTimeout(pasteTimer);
          pasteTimer = setTimeout(pasteTimedOut, PASTE_WAIT_MS);
          return;
        }
        text = endPaste(end, PASTE_END.length);
        continue;
      }
      const start = text.indexOf(PASTE_START);
      if (start === -1) break;
      typed(text.slice(0, start), false);
      pastesMarked = true;
      paste = '';
      text = text.slice(start + PASTE_START.length);
    }
    typed(text, true);
  };
  source.setEncoding('utf8');
  source.on('data', onData);
  return {
    stream: stream as unknown as NodeJS.ReadStream,
    close() {
      clearTimeout(timer);
      clearTimeout(pasteTimer);
      clearImmediate(draining);
      source.off('data', onData);
      source.pause();
      out.end();
    },
  };
}
