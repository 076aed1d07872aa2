/**
 * What a client does to text from the agent before it keeps it. The web chat
 * keeps it as is (React escapes it); the terminal strips escape sequences, and
 * must hold back a streamed chunk's tail that may be the start of one.
 */
export interface TextFilter {
  /** A whole text: a message, a reply, a note. */
  text(raw: string): string;
  /** A name drawn on one line (a command's). */
  line(raw: string): string;
  /** A streamed chunk after the tail held back from the last one: what to show, and what to hold. */
  chunk(held: string, raw: string): { text: string; held: string };
}

/** Text kept as it came. */
export const KEEP_TEXT: TextFilter = {
  text: (raw) => raw,
  line: (raw) => raw,
  chunk: (held, raw) => ({ text: held + raw, held: '' }),
};
