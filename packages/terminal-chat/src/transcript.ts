import {
  emptyTranscript,
  latestTaskRef,
  TranscriptCore,
  type Entry,
  type NoteTone,
  type TextFilter,
} from 'a2a-chat-core';
import { sanitizeChunk, sanitizeLine, sanitizeText } from './sanitize.js';

/*
 * The terminal chat's transcript is the client core's (a2a-chat-core), with
 * the agent's text made safe for a terminal on the way in: escape sequences
 * never reach the screen, even split between two chunks.
 */
export type {
  AgentEntry,
  Entry,
  NoteEntry,
  ReplyEntry,
  Transcript,
  TranscriptAction,
} from 'a2a-chat-core';
export { emptyTranscript, latestTaskRef };
export type NoticeTone = NoteTone;

/** The most entries a transcript keeps; older ones are dropped so a long session stays fast. */
export const MAX_ENTRIES = 500;

const TERMINAL_TEXT: TextFilter = {
  text: (raw) => sanitizeText(raw),
  line: sanitizeLine,
  chunk: (held, raw) => {
    const safe = sanitizeChunk(held, raw);
    return { text: safe.text, held: safe.pending };
  },
};

export const transcripts = new TranscriptCore({ filter: TERMINAL_TEXT, maxEntries: MAX_ENTRIES });

/** The entries one stream event leaves, for code that keeps entries alone. */
export function applyEvent(
  entries: Entry[],
  event: Parameters<TranscriptCore['applyEvent']>[1],
): Entry[] {
  return transcripts.applyEvent({ ...emptyTranscript, entries }, event).entries;
}
