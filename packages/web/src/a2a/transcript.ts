import {
  emptyTranscript,
  TranscriptCore,
  type Entry,
  type Transcript,
  type TranscriptAction,
} from 'a2a-chat-core';
import { titleFromText } from './messages.js';

/*
 * The web chat's transcript is the client core's (a2a-chat-core): text is kept
 * as it came, since React escapes what it draws. This module only names it.
 */
export type {
  AgentEntry,
  DividerEntry,
  Entry,
  NoteEntry,
  ReplyEntry,
  Transcript,
  TranscriptAction,
  UserEntry,
} from 'a2a-chat-core';
export { emptyTranscript };

const core = new TranscriptCore();

export const transcriptReducer: (transcript: Transcript, action: TranscriptAction) => Transcript =
  core.reduce;

/** A task's history as entries, with its status message and a running turn's answer so far. */
export function transcriptOf(task: Parameters<TranscriptCore['of']>[0]): Transcript {
  return core.of(task);
}

/** One stream event applied to a transcript. */
export function applyEvent(
  transcript: Transcript,
  event: Parameters<TranscriptCore['applyEvent']>[1],
): Transcript {
  return core.applyEvent(transcript, event);
}

/** A title from the first prompt (not a command), for a task the agent has not named. */
export function promptTitleOf(entries: readonly Entry[]): string | undefined {
  const first = entries.find((entry) => entry.kind === 'user' && !entry.command);
  return first ? titleFromText(first.text) : undefined;
}
