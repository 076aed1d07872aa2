import type { CommandReplyError } from 'a2a-commands/client';

/*
 * What a chat shows of one task: its entries, in order. Each client draws
 * them its own way; none of them decides what an event means.
 */

/** Something the user sent: a prompt, or a command (then `command` names it). */
export interface UserEntry {
  kind: 'user';
  /** The message's id. */
  key: string;
  text: string;
  command?: string;
  /** Shown at once, before the agent has accepted it. */
  pending: boolean;
}

/**
 * The model's answer. While it streams it is a preview built from artifact
 * chunks, which the turn's final message replaces. How it stands:
 * - streaming: chunks still come (`partial`: joined without the answer so far,
 *   so only a tail is known: show "answer in progress", not a fragment);
 * - complete: the turn's final message;
 * - stopped: `/stop` ended the turn, this is the answer so far (SEMANTICS §4);
 * - incomplete: the turn ended, or the chat stopped reading it, before its final message.
 */
export interface AgentEntry {
  kind: 'agent';
  /** The final message's id, or `artifact:<id>` for a preview. */
  key: string;
  text: string;
  streaming: boolean;
  /** Built from artifact chunks; the turn's final message replaces it. */
  preview: boolean;
  partial?: boolean;
  stopped?: boolean;
  incomplete?: boolean;
  /** A raw tail a text filter held back, to join to the next chunk (see TextFilter). */
  held?: string;
}

/** A command reply (SEMANTICS §3): a card tagged `/command`, never a model bubble. */
export interface ReplyEntry {
  kind: 'reply';
  key: string;
  /** The command's name, without the slash. */
  command: string;
  text: string;
  /** The reply's data part, when it has one. */
  data: unknown;
  /** The sub-task the command created (SEMANTICS §7). */
  taskRef?: string;
  /** The refusal the reply carries (`{"error": {code, message}}`), when it refused. */
  error?: CommandReplyError;
}

export type NoteTone = 'info' | 'warn' | 'error';

/**
 * Words for the user that are not model output: a note the agent wrote (a
 * model error, an interrupted turn), the end of a task, or the chat's own.
 */
export interface NoteEntry {
  kind: 'note';
  key: string;
  text: string;
  tone: NoteTone;
  /** Who wrote it: the agent (a message in the task), or this client. */
  from: 'agent' | 'client';
}

/** A line across the transcript: after `/clear`, the model's context starts below it. */
export interface DividerEntry {
  kind: 'divider';
  key: string;
  text: string;
}

export type Entry = UserEntry | AgentEntry | ReplyEntry | NoteEntry | DividerEntry;

/** How an answer stands, in one word (see {@link AgentEntry}). */
export type AnswerStatus = 'in-progress' | 'streaming' | 'complete' | 'stopped' | 'incomplete';

export function answerStatus(entry: AgentEntry): AnswerStatus {
  if (entry.streaming) return entry.partial ? 'in-progress' : 'streaming';
  if (entry.stopped) return 'stopped';
  return entry.incomplete ? 'incomplete' : 'complete';
}
