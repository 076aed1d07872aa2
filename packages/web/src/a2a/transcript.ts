import type { Artifact, Message, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { commandOf, isCommandReply, replyData, replyText, taskRefOf } from 'a2a-commands/client';
import {
  isAgentMessage,
  isNote,
  isStopped,
  textOf,
  titleFromText,
  userCommandOf,
} from './messages.js';
import { isBusy } from './task-states.js';

/** The harness's name for a turn's answer artifact: later `append` chunks build on it. */
export const ANSWER_ARTIFACT = 'answer';

/** Something the user sent: a prompt, or a command (then `command` names it). */
export interface UserEntry {
  kind: 'user';
  key: string;
  text: string;
  command?: string;
  /** Shown at once, before the agent has accepted it. */
  pending: boolean;
}

/** The model's answer: a streamed preview until the final message replaces it. */
export interface AgentEntry {
  kind: 'agent';
  key: string;
  text: string;
  streaming: boolean;
  /** Built from artifact chunks; the turn's final status message replaces it. */
  preview: boolean;
  /** A note the harness wrote (a model error, an interrupted turn), not model output. */
  note: boolean;
  /** Joined mid-answer without the answer so far: only a tail is known, so it is not shown. */
  partial?: boolean;
  /** `/stop` ended the turn: this is the answer so far. */
  stopped?: boolean;
}

/** A command reply (SEMANTICS §3): a card tagged `/command`, never a model bubble. */
export interface ReplyEntry {
  kind: 'reply';
  key: string;
  command: string;
  text: string;
  /** The reply's data part, when it has one. */
  data: unknown;
  /** The sub-task the command created (SEMANTICS §7). */
  taskRef?: string;
}

export type Entry = UserEntry | AgentEntry | ReplyEntry;

/** One task's conversation as the chat shows it. */
export interface Transcript {
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  metadata?: Record<string, unknown>;
  entries: Entry[];
  /** Artifacts whose preview a final message replaced: late chunks of them are dropped. */
  closed: string[];
}

export type TranscriptAction =
  /** Show a task (from GetTask), or an empty new chat. */
  | { type: 'reset'; task?: Task }
  /** The user sent this; shown as pending until the agent accepts it. */
  | { type: 'sent'; messageId: string; text: string; command?: string }
  | { type: 'accepted'; messageId: string }
  /** The agent never got it (unreachable, refused): take it back out. */
  | { type: 'unsent'; messageId: string }
  | { type: 'event'; event: StreamResponse }
  /** The task's state as GetTask read it (events of two streams may arrive out of order). */
  | { type: 'state'; taskId: string; state: TaskState | undefined };

export const emptyTranscript: Transcript = { entries: [], closed: [] };

/** The entry a stored or streamed message becomes. */
export function entryOf(message: Message): Entry {
  const text = textOf(message);
  if (isAgentMessage(message)) {
    const command = commandOf(message);
    if (command !== undefined) {
      return {
        kind: 'reply',
        key: message.messageId,
        command,
        text: replyText(message),
        data: replyData(message),
        taskRef: taskRefOf(message),
      };
    }
    return {
      kind: 'agent',
      key: message.messageId,
      text,
      streaming: false,
      preview: false,
      note: isNote(message),
      stopped: isStopped(message) || undefined,
    };
  }
  return {
    kind: 'user',
    key: message.messageId,
    text,
    command: userCommandOf(message),
    pending: false,
  };
}

/** A task's history as entries; its status message too when the history lacks it. */
export function transcriptOf(task: Task): Transcript {
  const entries: Entry[] = [];
  const seen = new Set<string>();
  const add = (message: Message) => {
    if (seen.has(message.messageId)) return;
    seen.add(message.messageId);
    entries.push(entryOf(message));
  };
  for (const message of task.history ?? []) add(message);
  const last = task.status?.message;
  if (last && isAgentMessage(last)) add(last);
  const transcript: Transcript = {
    taskId: task.id,
    contextId: task.contextId,
    state: task.status?.state,
    metadata: task.metadata,
    entries,
    closed: [],
  };
  return withAnswerSoFar(transcript, task);
}

/** The answer a running turn has written so far, as the snapshot's `answer` artifact carries it. */
function answerSoFarOf(task: Task): Artifact | undefined {
  if (!isBusy(task.status?.state)) return undefined;
  return task.artifacts?.find((artifact) => artifact.name === ANSWER_ARTIFACT);
}

/**
 * A snapshot of a running turn: its answer so far becomes (or replaces) the
 * streamed preview, so the appends that follow build on the whole text.
 */
function withAnswerSoFar(transcript: Transcript, task: Task): Transcript {
  const artifact = answerSoFarOf(task);
  if (!artifact) return transcript;
  const key = `artifact:${artifact.artifactId}`;
  if (transcript.closed.includes(key)) return transcript;
  const entry: AgentEntry = {
    kind: 'agent',
    key,
    text: textOf(artifact),
    streaming: true,
    preview: true,
    note: false,
  };
  const index = transcript.entries.findIndex((existing) => existing.key === key);
  const entries = transcript.entries.slice();
  if (index >= 0) entries[index] = entry;
  else entries.push(entry);
  return { ...transcript, entries };
}

function withEntry(transcript: Transcript, entry: Entry): Transcript {
  if (transcript.entries.some((existing) => existing.key === entry.key)) return transcript;
  return { ...transcript, entries: [...transcript.entries, entry] };
}

/** The id of the task an event belongs to, when it says. */
function taskIdOf(event: StreamResponse): string | undefined {
  const payload = event.payload;
  if (!payload) return undefined;
  if (payload.$case === 'task') return payload.value.id;
  return payload.value.taskId || undefined;
}

export function transcriptReducer(transcript: Transcript, action: TranscriptAction): Transcript {
  switch (action.type) {
    case 'reset':
      return action.task ? transcriptOf(action.task) : emptyTranscript;
    case 'sent':
      return withEntry(transcript, {
        kind: 'user',
        key: action.messageId,
        text: action.text,
        command: action.command,
        pending: true,
      });
    case 'accepted':
      return {
        ...transcript,
        entries: transcript.entries.map((entry) =>
          entry.key === action.messageId && entry.kind === 'user' && entry.pending
            ? { ...entry, pending: false }
            : entry,
        ),
      };
    case 'unsent':
      return {
        ...transcript,
        entries: transcript.entries.filter((entry) => entry.key !== action.messageId),
      };
    case 'event':
      return applyEvent(transcript, action.event);
    case 'state':
      if (transcript.taskId !== action.taskId || action.state === undefined) return transcript;
      return { ...transcript, state: action.state };
  }
}

/** One stream event: a task snapshot, a status update, an artifact chunk, or a message. */
export function applyEvent(transcript: Transcript, event: StreamResponse): Transcript {
  const payload = event.payload;
  if (!payload) return transcript;
  const taskId = taskIdOf(event);
  // Events of another task (a stream left over from the previous view) are not ours.
  if (transcript.taskId && taskId && taskId !== transcript.taskId) return transcript;
  switch (payload.$case) {
    case 'task': {
      const task = payload.value;
      let next: Transcript = {
        ...transcript,
        taskId: task.id,
        contextId: task.contextId,
        state: task.status?.state ?? transcript.state,
        metadata: task.metadata ?? transcript.metadata,
      };
      for (const message of task.history ?? []) {
        const pending = next.entries.find((entry) => entry.key === message.messageId);
        if (pending?.kind === 'user' && pending.pending) {
          next = transcriptReducer(next, { type: 'accepted', messageId: message.messageId });
        } else {
          next = withEntry(next, entryOf(message));
        }
      }
      return withAnswerSoFar(next, task);
    }
    case 'statusUpdate': {
      const update = payload.value;
      const next: Transcript = {
        ...transcript,
        taskId: transcript.taskId ?? update.taskId,
        contextId: transcript.contextId ?? update.contextId,
        state: update.status?.state ?? transcript.state,
      };
      const message = update.status?.message;
      if (!message || !isAgentMessage(message)) return next;
      if (isCommandReply(update)) {
        return withEntry(next, {
          kind: 'reply',
          key: message.messageId,
          command: commandOf(update)!,
          text: replyText(message),
          data: replyData(message),
          taskRef: taskRefOf(update),
        });
      }
      return finishTurn(next, message);
    }
    case 'artifactUpdate': {
      const { artifact, append, lastChunk } = payload.value;
      if (!artifact) return transcript;
      const key = `artifact:${artifact.artifactId}`;
      if (transcript.closed.includes(key)) return transcript;
      const chunk = textOf(artifact);
      const index = transcript.entries.findIndex((entry) => entry.key === key);
      const previous = index >= 0 ? transcript.entries[index] : undefined;
      // An append with nothing to append to: joined mid-answer without the text so far.
      const partial = append && (!previous || (previous.kind === 'agent' && previous.partial));
      const entry: AgentEntry = {
        kind: 'agent',
        key,
        text: append && previous ? previous.text + chunk : chunk,
        streaming: !lastChunk,
        preview: true,
        note: false,
        ...(partial ? { partial: true } : {}),
      };
      const entries = transcript.entries.slice();
      if (index >= 0) entries[index] = entry;
      else entries.push(entry);
      return { ...transcript, entries };
    }
    case 'message': {
      return withEntry(transcript, entryOf(payload.value));
    }
  }
}

/**
 * The turn's final message replaces its streamed preview, in place (the
 * harness sends the whole answer as the status message at the end of a turn).
 */
function finishTurn(transcript: Transcript, message: Message): Transcript {
  if (transcript.entries.some((entry) => entry.key === message.messageId)) return transcript;
  const final = entryOf(message);
  let index = -1;
  for (let i = transcript.entries.length - 1; i >= 0; i--) {
    const entry = transcript.entries[i]!;
    if (entry.kind === 'agent' && entry.preview) {
      index = i;
      break;
    }
  }
  if (index < 0) return { ...transcript, entries: [...transcript.entries, final] };
  const entries = transcript.entries.slice();
  const replaced = entries[index]!;
  entries[index] = final;
  return { ...transcript, entries, closed: [...transcript.closed, replaced.key] };
}

/** A title from the first prompt (not a command), for a task the agent has not named. */
export function promptTitleOf(entries: readonly Entry[]): string | undefined {
  const first = entries.find((entry) => entry.kind === 'user' && !entry.command);
  return first ? titleFromText(first.text) : undefined;
}
