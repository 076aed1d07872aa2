/* eslint-disable no-control-regex -- matching control characters is this file's job */
/*
 * Everything the chat shows comes from the network: agent names, replies,
 * model output, task ids. None of it may drive the terminal, so escape
 * sequences and control characters are removed before anything is drawn.
 */

/** ESC-introduced sequences: CSI, OSC/DCS/SOS/PM/APC strings, and two-byte escapes. */
const ESCAPE_SEQUENCE = new RegExp(
  [
    // CSI: ESC [ parameters intermediates final
    '\\u001b\\[[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?',
    // OSC, DCS, SOS, PM, APC: ESC ] P X ^ _ ... up to BEL or ST (or the end)
    '\\u001b[\\]PX^_][\\s\\S]*?(?:\\u0007|\\u001b\\\\|$)',
    // nF escapes such as charset designation: ESC, intermediates, final
    '\\u001b[\\u0020-\\u002f]+[\\u0030-\\u007e]?',
    // Any other escape: ESC and the byte after it
    '\\u001b[\\s\\S]?',
  ].join('|'),
  'g',
);

/** 8-bit C1 string introducers (DCS, SOS, OSC, PM, APC) with their payload, and 8-bit CSI. */
const C1_SEQUENCE =
  /[\u0090\u0098\u009d\u009e\u009f][\s\S]*?(?:\u0007|\u009c|$)|\u009b[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?/g;

/**
 * C0 controls but tab and newline, DEL, the C1 range, and Unicode's
 * bidirectional overrides and isolates (they reorder what the user reads).
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** How many spaces stand for a tab: ink measures a tab as one column, terminals as up to 8. */
const TAB = '  ';

/**
 * Text that is safe to draw: newlines kept (CR LF, CR and the Unicode line
 * separators become LF), tabs become spaces (or stay, with `keepTabs`), and
 * every escape sequence and other control character is removed.
 */
export function sanitizeText(text: string, options: { keepTabs?: boolean } = {}): string {
  const clean = text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(C1_SEQUENCE, '')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n');
  return (options.keepTabs ? clean : clean.replace(/\t/g, TAB)).replace(CONTROL, '');
}

/** Characters JSON.stringify leaves raw that a terminal may still act on: DEL, C1, bidi controls. */
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text with those characters written as `\uXXXX` escapes: the same JSON value, safe to print. */
export function escapeJson(json: string): string {
  return json.replace(
    JSON_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One line of safe text, for names, ids, hints and titles: newlines become spaces. */
export function sanitizeLine(text: string): string {
  return sanitizeText(text).replace(/\n+/g, ' ');
}

/** A held-back tail longer than this is let go: no terminal sequence is that long. */
const MAX_PENDING = 8192;

/** Where an escape sequence starts at `index`, whether all of it has arrived. */
function sequenceComplete(text: string, index: number): boolean {
  const lead = text[index]!;
  const introducer = lead === '\u001b' ? text[index + 1] : lead;
  if (introducer === undefined) return false;
  const bodyStart = lead === '\u001b' ? index + 2 : index + 1;
  if (introducer === '[' || introducer === '\u009b') {
    return /^[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]/.test(text.slice(bodyStart));
  }
  if (/^[\]PX^_\u0090\u0098\u009d-\u009f]$/.test(introducer)) {
    return /[\u0007\u009c]/.test(text.slice(bodyStart));
  }
  return true;
}

/**
 * Streams are sanitized as they arrive, without going over the text again on
 * every chunk: the safe text of `pending + chunk`, and the tail to hold back
 * because it may be the start of an escape sequence (or a CR whose LF is next).
 */
export function sanitizeChunk(pending: string, chunk: string): { text: string; pending: string } {
  const combined = pending + chunk;
  let cut = combined.length;
  const last = Math.max(
    combined.lastIndexOf('\u001b'),
    combined.search(/[\u0090\u0098\u009b\u009d-\u009f][^\u0090\u0098\u009b\u009d-\u009f]*$/),
  );
  if (last !== -1 && !sequenceComplete(combined, last)) cut = last;
  else if (combined.endsWith('\r')) cut = combined.length - 1;
  if (combined.length - cut > MAX_PENDING) cut = combined.length;
  return { text: sanitizeText(combined.slice(0, cut)), pending: combined.slice(cut) };
}
