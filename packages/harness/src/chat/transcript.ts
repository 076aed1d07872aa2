import { Role, TaskState, type Message, type StreamResponse, type Task } from '@a2a-js/sdk';
import { commandOf, replyData, replyText, taskRefOf } from 'a2a-commands/client';
import { isNote } from '../notes.js';
import { SETTINGS_KEY } from '../settings.js';
import { sanitizeChunk, sanitizeLine, sanitizeText } from './sanitize.js';

/** One thing shown in a task's transcript. All text is sanitized on the way in. */
export type Entry =
  | { kind: 'user'; key: string; text: string }
  | {
      kind: 'answer';
      key: string;
      text: string;
      /** Still receiving chunks. */
      streaming: boolean;
      /** Built from artifact chunks, to be replaced by the turn's final message. */
      preview: boolean;
      /** The raw tail held back because an escape sequence may continue in the next chunk. */
      pending?: string;
      /** Joined mid-answer without the answer so far: only a tail is known, so it is not drawn. */
      joined?: boolean;
      /** `/stop` ended the turn: this is the answer so far. */
      stopped?: boolean;
    }
  | {
      kind: 'reply';
      key: string;
      command: string;
      text: string;
      /** The reply's data part, as sent (render it through `sanitizeLine`). */
      data: unknown;
      taskRef?: string;
    }
  | { kind: 'notice'; key: string; text: string; tone: NoticeTone };

export type NoticeTone = 'info' | 'warn' | 'error';

/** The most entries a transcript keeps; older ones are dropped so a long session stays fast. */
export const MAX_ENTRIES = 500;

function keep(entries: Entry[]): Entry[] {
  return entries.length > MAX_ENTRIES ? entries.slice(entries.length - MAX_ENTRIES) : entries;
}

export function userEntry(text: string, key: string = crypto.randomUUID()): Entry {
  return { kind: 'user', key, text: sanitizeText(text) };
}

export function noticeEntry(text: string, tone: NoticeTone = 'info'): Entry {
  return { kind: 'notice', key: crypto.randomUUID(), text: sanitizeText(text), tone };
}

export function append(entries: readonly Entry[], ...added: Entry[]): Entry[] {
  return keep([...entries, ...added]);
}

const ENDED_WORDS: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_CANCELED]: 'The task was canceled.',
  [TaskState.TASK_STATE_FAILED]: 'The task failed.',
  [TaskState.TASK_STATE_REJECTED]: 'The agent rejected the task.',
};

/** The harness's name for a turn's answer artifact, whose chunks append to it. */
const ANSWER_ARTIFACT = 'answer';

const TURN_RUNNING: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

/** An answer `/stop` cut short: the harness marks it `{"a2a-harness":{"stopped":true}}`. */
function isStopped(message: Message): boolean {
  const tag = message.metadata?.[SETTINGS_KEY] as { stopped?: unknown } | undefined;
  return tag?.stopped === true;
}

function isAgent(message: Message | undefined): message is Message {
  return message !== undefined && message.role === Role.ROLE_AGENT;
}

/** A turn ended without its final answer: its preview stays as it got. */
export function endPreviews(entries: readonly Entry[]): Entry[] {
  return entries.map((entry) =>
    entry.kind === 'answer' && entry.preview
      ? { ...entry, streaming: false, preview: false }
      : entry,
  );
}

/**
 * An agent message: a command reply (SEMANTICS §3), a harness note, or the
 * answer that ends a turn, which replaces the preview its chunks built.
 * A message already shown (same messageId) is ignored, so a reply that
 * arrives on two streams is drawn once.
 */
export function applyAgentMessage(
  entries: readonly Entry[],
  message: Message,
  state?: TaskState,
): Entry[] {
  const key = message.messageId || crypto.randomUUID();
  if (entries.some((entry) => entry.key === key)) return entries.slice();
  const command = commandOf(message);
  if (command !== undefined) {
    const reply: Entry = {
      kind: 'reply',
      key,
      command: sanitizeLine(command),
      text: sanitizeText(replyText(message)),
      data: replyData(message),
      taskRef: taskRefOf(message),
    };
    return append(entries, reply);
  }
  const text = sanitizeText(replyText(message));
  const failed = state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_REJECTED;
  if (isNote(message) || failed) {
    return append(endPreviews(entries), {
      kind: 'notice',
      key,
      text: text || (state === undefined ? '' : (ENDED_WORDS[state] ?? '')),
      tone: failed ? 'error' : 'warn',
    });
  }
  if (text === '') return endPreviews(entries);
  const answer: Entry = { kind: 'answer', key, text, streaming: false, preview: false };
  if (isStopped(message)) answer.stopped = true;
  const index = entries.findLastIndex((entry) => entry.kind === 'answer' && entry.preview);
  if (index === -1) return append(entries, answer);
  const next = entries.slice();
  next[index] = answer;
  return next;
}

function partsText(parts: Message['parts']): string {
  return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** How one stream event changes a transcript. */
export function applyEvent(entries: readonly Entry[], event: StreamResponse): Entry[] {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task': {
      const { status } = payload.value;
      const joined = answersSoFar(entries, payload.value);
      return isAgent(status?.message)
        ? applyAgentMessage(joined, status.message, status.state)
        : joined;
    }
    case 'message':
      return isAgent(payload.value) ? applyAgentMessage(entries, payload.value) : entries.slice();
    case 'statusUpdate': {
      const update = payload.value;
      const message = update.status?.message;
      const state = update.status?.state;
      if (isAgent(message)) {
        // The update's own metadata tags a reply even when its message does not.
        const tagged = commandOf(update) !== undefined && commandOf(message) === undefined;
        return applyAgentMessage(
          entries,
          tagged ? { ...message, metadata: { ...message.metadata, ...update.metadata } } : message,
          state,
        );
      }
      const ended = state === undefined ? undefined : ENDED_WORDS[state];
      if (ended) return append(endPreviews(entries), noticeEntry(ended, 'warn'));
      return entries.slice();
    }
    case 'artifactUpdate': {
      const { artifact, append: appending, lastChunk } = payload.value;
      if (!artifact) return entries.slice();
      const key = `artifact:${artifact.artifactId}`;
      const chunk = partsText(artifact.parts);
      const index = entries.findIndex((entry) => entry.key === key);
      const previous = index === -1 ? undefined : entries[index];
      const continues = appending && previous?.kind === 'answer';
      const safe = sanitizeChunk(continues ? (previous.pending ?? '') : '', chunk);
      const text = (continues ? previous.text : '') + safe.text;
      const answer: Entry = {
        kind: 'answer',
        key,
        text: lastChunk ? text + sanitizeText(safe.pending) : text,
        pending: lastChunk ? undefined : safe.pending,
        streaming: !lastChunk,
        preview: true,
      };
      // An append to an answer never seen: we joined mid-answer and hold only its tail.
      if (
        appending &&
        (previous === undefined || (previous.kind === 'answer' && previous.joined))
      ) {
        answer.joined = true;
      }
      if (index === -1) return append(entries, answer);
      const next = entries.slice();
      next[index] = answer;
      return next;
    }
    default:
      return entries.slice();
  }
}

/**
 * A running task's snapshot (GetTask, or SubscribeToTask's first event)
 * carries the answer so far as the `answer` artifact: it becomes the
 * streaming preview that later appends build on and the final message replaces.
 */
function answersSoFar(entries: readonly Entry[], task: Task): Entry[] {
  if (task.status === undefined || !TURN_RUNNING.has(task.status.state)) return entries.slice();
  let next = entries.slice();
  for (const artifact of task.artifacts ?? []) {
    if (artifact.name !== ANSWER_ARTIFACT) continue;
    const key = `artifact:${artifact.artifactId}`;
    const safe = sanitizeChunk('', partsText(artifact.parts));
    const answer: Entry = {
      kind: 'answer',
      key,
      text: safe.text,
      pending: safe.pending,
      streaming: true,
      preview: true,
    };
    const index = next.findIndex((entry) => entry.key === key);
    if (index === -1) next = append(next, answer);
    else next[index] = answer;
  }
  return next;
}

/** A stored task as a transcript: its history, then any answer kept only as an artifact or status. */
export function entriesFromTask(task: Task): Entry[] {
  let entries: Entry[] = [];
  for (const message of task.history ?? []) {
    if (message.role === Role.ROLE_USER) {
      entries = append(entries, userEntry(partsText(message.parts), message.messageId));
    } else if (isAgent(message)) {
      entries = applyAgentMessage(entries, message);
    }
  }
  const history = task.history ?? [];
  const answered =
    history.findLastIndex((message) => isAgent(message)) >
    history.findLastIndex((message) => message.role === Role.ROLE_USER);
  const running = task.status !== undefined && TURN_RUNNING.has(task.status.state);
  if (running) entries = answersSoFar(entries, task);
  else if (!answered) {
    for (const artifact of task.artifacts ?? []) {
      const text = partsText(artifact.parts);
      if (text !== '') {
        entries = append(entries, {
          kind: 'answer',
          key: `artifact:${artifact.artifactId}`,
          text: sanitizeText(text),
          streaming: false,
          preview: false,
        });
      }
    }
  }
  const status = task.status;
  if (isAgent(status?.message)) entries = applyAgentMessage(entries, status.message, status.state);
  return entries;
}

/** The sub-task id of the newest reply that names one, for the switch key. */
export function latestTaskRef(entries: readonly Entry[]): string | undefined {
  const reply = entries.findLast((entry) => entry.kind === 'reply' && entry.taskRef);
  return reply?.kind === 'reply' ? reply.taskRef : undefined;
}
