/* eslint-disable no-control-regex -- matching escape sequences is this file's job */
import { PassThrough } from 'node:stream';

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

/**
 * A read cut into what ink must see apart. ink splits a read at escape
 * sequences only, so two Ctrl+C in one read would reach it as the text
 * `\x03\x03`, and Ctrl+U before typed text as part of that text. Each control
 * key is its own piece; text between them (a paste, line breaks and all) stays whole.
 */
export function splitKeys(text: string): string[] {
  return text.match(KEY_OR_RUN) ?? [];
}

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
  const pass = (text: string) => {
    queue.push(...splitKeys(text));
    if (draining === undefined) drain();
  };
  const flush = () => {
    if (pending !== '') pass(pending);
    pending = '';
  };
  const onData = (chunk: Buffer | string) => {
    clearTimeout(timer);
    let text = pending + String(chunk);
    pending = '';
    const partial = PARTIAL_CSI.exec(text);
    if (partial) {
      pending = text.slice(partial.index);
      text = text.slice(0, partial.index);
      timer = setTimeout(flush, PARTIAL_WAIT_MS);
    }
    const kept = filterKeys(text);
    if (kept !== '') pass(kept);
  };
  source.setEncoding('utf8');
  source.on('data', onData);
  return {
    stream: stream as unknown as NodeJS.ReadStream,
    close() {
      clearTimeout(timer);
      clearImmediate(draining);
      source.off('data', onData);
      source.pause();
      out.end();
    },
  };
}
