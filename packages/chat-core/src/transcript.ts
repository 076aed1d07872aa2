import {
  TaskState,
  type Artifact,
  type Message,
  type StreamResponse,
  type Task,
} from '@a2a-js/sdk';
import {
  commandOf,
  isCommandReply,
  isRunningState,
  isTerminalState,
  replyData,
  replyErrorOf,
  replyText,
  taskRefOf,
} from 'a2a-commands/client';
import { ANSWER_ARTIFACT_NAME, isNote, isStoppedAnswer } from './harness-marks.js';
import type { AgentEntry, Entry, NoteTone, ReplyEntry } from './entries.js';
import { isAgentMessage, textOf, userCommandOf } from './messages.js';
import { KEEP_TEXT, type TextFilter } from './text-filter.js';

/** One task's conversation as a chat shows it. */
export interface Transcript {
  /** Undefined until the first message creates the task. */
  taskId?: string;
  contextId?: string;
  /** The last state seen. */
  state?: TaskState;
  metadata?: Record<string, unknown>;
  entries: Entry[];
  /** Artifacts whose preview a final message replaced: their late chunks are dropped. */
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
  /**
   * One stream event. Events of another task are dropped (a stream left over
   * from the previous view), unless `adopt`: this stream starts the view's next task.
   */
  | { type: 'event'; event: StreamResponse; adopt?: boolean }
  /** SendMessage's answer: a Task whose status message is the reply (SEMANTICS §3), or a Message. */
  | { type: 'result'; result: Task | Message }
  /** An agent message alone, its task's state left as it is (a `/stop` reply, say). */
  | { type: 'message'; message: Message }
  /** The task's state as GetTask read it (events of two streams may arrive out of order). */
  | { type: 'state'; taskId: string; state: TaskState | undefined }
  /** The conversation goes on in another task (a copy made with `/fork`). */
  | { type: 'moved'; taskId: string; state?: TaskState }
  /** The chat's own words in the transcript. */
  | { type: 'note'; text: string; tone?: NoteTone }
  /** The chat stopped reading the turn (it canceled it): what streamed stays, incomplete. */
  | { type: 'left' };

export interface TranscriptOptions {
  /** What is done to the agent's text before it is kept; as it came by default. */
  filter?: TextFilter;
  /** The most entries kept; older ones are dropped so a long session stays fast. */
  maxEntries?: number;
}

export const emptyTranscript: Transcript = { entries: [], closed: [] };

/** How many replaced previews are remembered: late chunks come right after the final message. */
const CLOSED_KEPT = 32;

/** The harness's command whose reply draws a divider when it cleared the context. */
const CLEAR_COMMAND = 'clear';

/** Words for a task that ended without a message saying why. */
const ENDED_WORDS: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_CANCELED]: 'The task was canceled.',
  [TaskState.TASK_STATE_FAILED]: 'The task failed.',
  [TaskState.TASK_STATE_REJECTED]: 'The agent rejected the task.',
};

function isFailure(state: TaskState | undefined): boolean {
  return state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_REJECTED;
}

let noteCount = 0;

/**
 * Transcripts and the actions that change them, for one client's options.
 * Every function is pure: a transcript in, a new one out (the same object when
 * nothing changed, so React skips a render).
 */
export class TranscriptCore {
  private readonly filter: TextFilter;
  private readonly maxEntries: number;

  constructor(options: TranscriptOptions = {}) {
    this.filter = options.filter ?? KEEP_TEXT;
    this.maxEntries = options.maxEntries ?? Infinity;
  }

  /** For `useReducer`. */
  readonly reduce = (transcript: Transcript, action: TranscriptAction): Transcript => {
    switch (action.type) {
      case 'reset':
        return action.task ? this.of(action.task) : emptyTranscript;
      case 'sent':
        return this.withEntry(transcript, {
          kind: 'user',
          key: action.messageId,
          text: this.filter.text(action.text),
          command: action.command,
          pending: true,
        });
      case 'accepted':
        return accept(transcript, action.messageId);
      case 'unsent':
        return {
          ...transcript,
          entries: transcript.entries.filter((entry) => entry.key !== action.messageId),
        };
      case 'event':
        return this.applyEvent(transcript, action.event, action.adopt);
      case 'result':
        return this.applyResult(transcript, action.result);
      case 'message':
        return this.applyAgentMessage(transcript, action.message);
      case 'state':
        if (transcript.taskId !== action.taskId || action.state === undefined) return transcript;
        return { ...transcript, state: action.state };
      case 'moved':
        return { ...transcript, taskId: action.taskId, state: action.state ?? transcript.state };
      case 'note':
        return this.withEntry(transcript, {
          kind: 'note',
          key: `note:${++noteCount}`,
          text: action.text,
          tone: action.tone ?? 'info',
          from: 'client',
        });
      case 'left':
        return endPreviews(transcript);
    }
  };

  /** A stored task: its history, its status message, and a running turn's answer so far. */
  of(task: Task): Transcript {
    let transcript: Transcript = {
      taskId: task.id,
      contextId: task.contextId,
      state: task.status?.state,
      metadata: task.metadata,
      entries: [],
      closed: [],
    };
    for (const message of task.history ?? []) transcript = this.applyMessage(transcript, message);
    const state = task.status?.state;
    const last = task.status?.message;
    if (isAgentMessage(last)) transcript = this.applyAgentMessage(transcript, last!, state);
    if (isRunningState(state)) return this.withAnswerSoFar(transcript, task);
    return this.withFinishedArtifacts(transcript, task);
  }

  /** One stream event: a task snapshot, a status update, an artifact chunk, or a message. */
  applyEvent(transcript: Transcript, event: StreamResponse, adopt = false): Transcript {
    const payload = event.payload;
    if (!payload) return transcript;
    const taskId = payload.$case === 'task' ? payload.value.id : payload.value.taskId || undefined;
    const other =
      transcript.taskId !== undefined && taskId !== undefined && taskId !== transcript.taskId;
    if (other && !adopt) return transcript;
    switch (payload.$case) {
      case 'task':
        return this.applySnapshot(transcript, payload.value);
      case 'statusUpdate': {
        const update = payload.value;
        const reply = isCommandReply(update);
        const next: Transcript = {
          ...transcript,
          taskId: other ? update.taskId : (transcript.taskId ?? (update.taskId || undefined)),
          contextId: other
            ? update.contextId
            : (transcript.contextId ?? (update.contextId || undefined)),
          // SEMANTICS §4: a reply carries the state the task had when the command ran,
          // which a turn's end on another stream may already have changed.
          state: reply
            ? (transcript.state ?? update.status?.state)
            : (update.status?.state ?? transcript.state),
        };
        const message = update.status?.message;
        if (isAgentMessage(message)) {
          // The update's own metadata tags a reply even when its message does not.
          const tagged = reply && commandOf(message) === undefined;
          return this.applyAgentMessage(
            next,
            tagged
              ? { ...message!, metadata: { ...message!.metadata, ...update.metadata } }
              : message!,
            update.status?.state,
          );
        }
        const ended =
          update.status?.state === undefined ? undefined : ENDED_WORDS[update.status.state];
        if (!ended) return next;
        return this.withEntry(endPreviews(next), {
          kind: 'note',
          key: `ended:${next.taskId ?? ''}:${update.status!.state}`,
          text: ended,
          tone: isFailure(update.status!.state) ? 'error' : 'warn',
          from: 'agent',
        });
      }
      case 'artifactUpdate': {
        const { artifact, append, lastChunk } = payload.value;
        if (!artifact) return transcript;
        return this.applyChunk(transcript, artifact, append, lastChunk);
      }
      case 'message':
        return this.applyMessage(transcript, payload.value);
    }
  }

  private applySnapshot(transcript: Transcript, task: Task): Transcript {
    // A command's stream opens with a snapshot holding the command message. Like
    // its reply, it has the state the task had when the command ran (SEMANTICS §4),
    // which a turn ending on another stream may have changed since.
    const last = task.history?.at(-1);
    const forCommand = last !== undefined && userCommandOf(last) !== undefined;
    let next: Transcript = {
      ...transcript,
      taskId: task.id,
      contextId: task.contextId,
      state: forCommand
        ? (transcript.state ?? task.status?.state)
        : (task.status?.state ?? transcript.state),
      metadata: task.metadata ?? transcript.metadata,
    };
    for (const message of task.history ?? []) next = this.applyMessage(next, message);
    const said = task.status?.message;
    if (isAgentMessage(said)) next = this.applyAgentMessage(next, said!, task.status?.state);
    return this.withAnswerSoFar(next, task);
  }

  private applyResult(transcript: Transcript, result: Task | Message): Transcript {
    if ('messageId' in result) return this.applyMessage(transcript, result);
    const other = transcript.taskId !== undefined && transcript.taskId !== result.id;
    const next: Transcript = other
      ? transcript
      : {
          ...transcript,
          taskId: result.id,
          contextId: transcript.contextId ?? result.contextId,
          state: result.status?.state ?? transcript.state,
        };
    const message = result.status?.message;
    return isAgentMessage(message)
      ? this.applyAgentMessage(next, message!, result.status?.state)
      : next;
  }

  /** A message from history or a stream: the user's, or the agent's. */
  private applyMessage(transcript: Transcript, message: Message): Transcript {
    if (isAgentMessage(message)) return this.applyAgentMessage(transcript, message);
    const known = transcript.entries.find((entry) => entry.key === message.messageId);
    if (known?.kind === 'user' && known.pending) return accept(transcript, message.messageId);
    return this.withEntry(transcript, {
      kind: 'user',
      key: message.messageId,
      text: this.filter.text(textOf(message)),
      command: userCommandOf(message),
      pending: false,
    });
  }

  /**
   * An agent message: a command reply (SEMANTICS §3), a note, or the answer
   * that ends a turn, which replaces the preview its chunks built. A message
   * already shown (same messageId) is ignored, so a reply that arrives on two
   * streams is drawn once.
   */
  private applyAgentMessage(
    transcript: Transcript,
    message: Message,
    state?: TaskState,
  ): Transcript {
    const key = message.messageId || `message:${++noteCount}`;
    if (transcript.entries.some((entry) => entry.key === key)) return transcript;
    const command = commandOf(message);
    if (command !== undefined) return this.withReply(transcript, message, key, command);
    const text = this.filter.text(replyText(message));
    if (isNote(message) || isFailure(state)) {
      return this.withEntry(endPreviews(transcript), {
        kind: 'note',
        key,
        text: text || (state === undefined ? '' : (ENDED_WORDS[state] ?? '')),
        tone: isFailure(state) ? 'error' : 'warn',
        from: 'agent',
      });
    }
    if (text === '') return endPreviews(transcript);
    const answer: AgentEntry = { kind: 'agent', key, text, streaming: false, preview: false };
    if (isStoppedAnswer(message)) answer.stopped = true;
    const index = transcript.entries.findLastIndex(
      (entry) => entry.kind === 'agent' && entry.preview,
    );
    if (index === -1) return this.withEntry(transcript, answer);
    const entries = transcript.entries.slice();
    const replaced = entries[index]!;
    entries[index] = answer;
    return { ...transcript, entries, closed: closing(transcript.closed, replaced.key) };
  }

  private withReply(transcript: Transcript, message: Message, key: string, command: string) {
    const reply: ReplyEntry = {
      kind: 'reply',
      key,
      command: this.filter.line(command),
      text: this.filter.text(replyText(message)),
      data: replyData(message),
      taskRef: taskRefOf(message),
    };
    const error = replyErrorOf(message);
    if (error) reply.error = error;
    const next = this.withEntry(transcript, reply);
    const cleared = (reply.data as { cleared?: unknown } | undefined)?.cleared;
    // The harness's /clear: the model's context starts after this reply.
    if (command !== CLEAR_COMMAND || typeof cleared !== 'number' || cleared <= 0) return next;
    return this.withEntry(next, {
      kind: 'divider',
      key: `${key}:divider`,
      text: "Context cleared: the model's context starts here",
    });
  }

  /** An artifact chunk: the first starts a preview, `append` ones grow it. */
  private applyChunk(
    transcript: Transcript,
    artifact: Artifact,
    append: boolean,
    lastChunk: boolean,
  ): Transcript {
    const key = `artifact:${artifact.artifactId}`;
    if (transcript.closed.includes(key)) return transcript;
    const index = transcript.entries.findIndex((entry) => entry.key === key);
    const previous = index === -1 ? undefined : transcript.entries[index];
    const continues = append && previous?.kind === 'agent';
    const safe = this.filter.chunk(continues ? (previous.held ?? '') : '', textOf(artifact, ''));
    const text = (continues ? previous.text : '') + safe.text;
    const entry: AgentEntry = {
      kind: 'agent',
      key,
      text: lastChunk ? text + this.filter.text(safe.held) : text,
      streaming: !lastChunk,
      preview: true,
    };
    if (!lastChunk && safe.held !== '') entry.held = safe.held;
    // An append to an answer never seen: joined mid-answer, holding only its tail.
    if (append && (previous === undefined || (previous.kind === 'agent' && previous.partial))) {
      entry.partial = true;
    }
    return this.put(transcript, index, entry);
  }

  /**
   * SEMANTICS §4: a running task's snapshot carries the answer so far as the
   * `answer` artifact. It becomes (or replaces, when a snapshot comes again
   * after an outage) the streaming preview that later appends build on.
   */
  private withAnswerSoFar(transcript: Transcript, task: Task): Transcript {
    if (!isRunningState(task.status?.state)) return transcript;
    let next = transcript;
    for (const artifact of task.artifacts ?? []) {
      if (artifact.name !== ANSWER_ARTIFACT_NAME) continue;
      const key = `artifact:${artifact.artifactId}`;
      if (next.closed.includes(key)) continue;
      const safe = this.filter.chunk('', textOf(artifact, ''));
      const entry: AgentEntry = {
        kind: 'agent',
        key,
        text: safe.text,
        streaming: true,
        preview: true,
      };
      if (safe.held !== '') entry.held = safe.held;
      next = this.put(
        next,
        next.entries.findIndex((existing) => existing.key === key),
        entry,
      );
    }
    return next;
  }

  /**
   * A task that ended with its answer only as artifacts (an agent other than
   * the harness, whose history holds each answer as a message): show them.
   */
  private withFinishedArtifacts(transcript: Transcript, task: Task): Transcript {
    if (!isTerminalState(task.status?.state)) return transcript;
    const last = transcript.entries.findLast(
      (entry) => entry.kind === 'user' || entry.kind === 'agent',
    );
    if (last?.kind === 'agent') return transcript;
    let next = transcript;
    for (const artifact of task.artifacts ?? []) {
      const text = this.filter.text(textOf(artifact, ''));
      if (text === '') continue;
      next = this.withEntry(next, {
        kind: 'agent',
        key: `artifact:${artifact.artifactId}`,
        text,
        streaming: false,
        preview: false,
      });
    }
    return next;
  }

  private put(transcript: Transcript, index: number, entry: Entry): Transcript {
    if (index === -1) return this.withEntry(transcript, entry);
    const entries = transcript.entries.slice();
    entries[index] = entry;
    return { ...transcript, entries };
  }

  /** Adds an entry unless one with its key is there already. */
  private withEntry(transcript: Transcript, entry: Entry): Transcript {
    if (transcript.entries.some((existing) => existing.key === entry.key)) return transcript;
    const entries = [...transcript.entries, entry];
    const over = entries.length - this.maxEntries;
    return { ...transcript, entries: over > 0 ? entries.slice(over) : entries };
  }
}

function accept(transcript: Transcript, messageId: string): Transcript {
  return {
    ...transcript,
    entries: transcript.entries.map((entry) =>
      entry.key === messageId && entry.kind === 'user' && entry.pending
        ? { ...entry, pending: false }
        : entry,
    ),
  };
}

/** A turn ended without its final message: what streamed stays, incomplete. */
function endPreviews(transcript: Transcript): Transcript {
  if (!transcript.entries.some((entry) => entry.kind === 'agent' && entry.preview)) {
    return transcript;
  }
  let closed = transcript.closed;
  const entries = transcript.entries.map((entry): Entry => {
    if (entry.kind !== 'agent' || !entry.preview) return entry;
    closed = closing(closed, entry.key);
    const { held: _held, ...rest } = entry;
    return { ...rest, streaming: false, preview: false, incomplete: true };
  });
  return { ...transcript, entries, closed };
}

function closing(closed: readonly string[], key: string): string[] {
  return [...closed, key].slice(-CLOSED_KEPT);
}

/** The sub-task id of the newest reply that names one. */
export function latestTaskRef(entries: readonly Entry[]): string | undefined {
  const reply = entries.findLast((entry) => entry.kind === 'reply' && entry.taskRef);
  return reply?.kind === 'reply' ? reply.taskRef : undefined;
}
