import { TaskState, type Message, type TaskStatus } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskMetadata } from 'a2a-commands';
import type { TaskHead } from 'a2a-commands/server';
import type { TurnEnding as EndingLabel } from '../metrics/harness-metrics.js';
import { noteMessage } from '../notes.js';
import { SETTINGS_KEY, settingsOf, withSettings, type TokenUsage } from '../settings.js';
import type { TurnRowWrite, HarnessTaskStore } from '../store/index.js';
import type { TaskEvents } from './task-events.js';
import { abortReasonOf, type AbortReason, type Turn } from './turn.js';
import { textOf } from './model-context.js';
import {
  agentMessage,
  answerArtifact,
  status,
  statusEvent,
  TERMINAL_STATES,
} from './turn-events.js';

export const TURN_FAILED_NOTE =
  'This turn failed on the server before it could finish (the server log says why). Send your message again to retry.';
export const INTERRUPTED_BY_RESTART =
  'This turn was interrupted: the server stopped while it ran. Send your message again to retry.';
export const INTERRUPTED_BY_SHUTDOWN =
  'This turn was interrupted: the server shut down while it ran. Send your message again to retry.';
export const STOPPED_BEFORE_ANSWER = 'Stopped before the model wrote anything.';
export const EMPTY_ANSWER = '(the model returned no text)';
export const CUT_NOTES = {
  'answer-limit':
    '(The answer was cut here: it reached the longest answer kept, turns.answerChars.)',
  incomplete:
    "(The model's stream ended before the model said it had finished: this answer may be incomplete.)",
} as const;

/**
 * Every way a turn ends:
 * - finished: the model's answer is stored;
 * - model-error: the model failed; its error, in words, is the note;
 * - stopped: `/stop`; the answer so far is stored, marked stopped (SEMANTICS §4);
 * - failed: the harness failed outside the model call;
 * - interrupted: the server stopped, shut down, or the instance running it died;
 *   on a shutdown the answer so far is known, and stored before the note, as `/stop` keeps it;
 * - canceled: CancelTask ended the task for good.
 *
 * `ruleOf` handles each kind in one exhaustive switch: a new kind does not
 * compile until it says who writes it, what it stores and how it is counted.
 */
export type TurnEnding =
  | { kind: 'finished'; text: string; usage: TokenUsage; cut?: 'answer-limit' | 'incomplete' }
  | { kind: 'model-error'; reason: string }
  | { kind: 'stopped'; text: string }
  | { kind: 'failed' }
  | { kind: 'interrupted'; note: string; text?: string }
  | { kind: 'canceled' };

/**
 * Who stores an ending: the turn itself once its model part returns, or
 * whoever ended it from outside (CancelTask, a shutdown), in its own write.
 * The turn then writes nothing, and a cluster turn leaves its row to them.
 */
export type EndingWriter = 'turn' | 'outside';

/** What one kind of ending means. */
interface EndingRule {
  writer: EndingWriter;
  /** How the metrics count it. */
  label: EndingLabel;
  /** The message it leaves in the history, if any. */
  message?: Message;
  /** Whether that message is an answer, kept as the task's `answer` artifact too (SEMANTICS §4). */
  answer?: boolean;
  /** An answer so far that goes before `message` (a note), kept as the `answer` artifact. */
  answerBefore?: Message;
  /** The status it stores over `current`. */
  status(current: TaskStatus | undefined, message: Message | undefined): TaskStatus | undefined;
  metadata?: (current: TaskMetadata) => TaskMetadata;
}

/** The one switch over the kinds of ending. */
function ruleOf(task: { id: string; contextId: string }, ending: TurnEnding): EndingRule {
  const { id, contextId } = task;
  // Every ending but a cancel leaves the task waiting for input, unless CancelTask ended it meanwhile.
  const backToInput = (current: TaskStatus | undefined, message: Message | undefined) =>
    TERMINAL_STATES.has(current?.state ?? 0)
      ? current
      : status(TaskState.TASK_STATE_INPUT_REQUIRED, message);
  switch (ending.kind) {
    case 'finished':
      return {
        writer: 'turn',
        label: 'answered',
        message: finishedMessage(task, ending),
        answer: true,
        status: backToInput,
        metadata: countTurn(ending.usage),
      };
    case 'model-error':
      return {
        writer: 'turn',
        label: 'model_error',
        message: noteMessage(id, contextId, 'model-error', ending.reason),
        status: backToInput,
      };
    case 'stopped':
      return {
        writer: 'turn',
        label: 'stopped',
        message: ending.text
          ? stoppedAnswer(task, ending.text)
          : noteMessage(id, contextId, 'stopped', STOPPED_BEFORE_ANSWER),
        answer: ending.text !== '',
        status: backToInput,
      };
    case 'failed':
      return {
        writer: 'turn',
        label: 'failed',
        message: noteMessage(id, contextId, 'interrupted', TURN_FAILED_NOTE),
        status: backToInput,
      };
    case 'interrupted':
      return {
        writer: 'outside',
        label: 'shutdown',
        answerBefore: ending.text ? stoppedAnswer(task, ending.text) : undefined,
        message: noteMessage(id, contextId, 'interrupted', ending.note),
        status: backToInput,
      };
    case 'canceled':
      // Only CancelTask ends a task for good (SEMANTICS §4); it leaves no message.
      return {
        writer: 'outside',
        label: 'canceled',
        status: () => status(TaskState.TASK_STATE_CANCELED),
      };
    default:
      return unhandled(ending);
  }
}

function unhandled(ending: never): never {
  throw new Error(`unknown turn ending ${JSON.stringify(ending)}`);
}

/** Who writes `ending` (see `EndingWriter`). */
export function writerOf(ending: TurnEnding): EndingWriter {
  return ruleOf({ id: '', contextId: '' }, ending).writer;
}

/** How the metrics count `ending`. */
export function labelOf(ending: TurnEnding): EndingLabel {
  return ruleOf({ id: '', contextId: '' }, ending).label;
}

/** The ending an abort makes of a turn, given the answer it had streamed so far. */
export function endingAfterAbort(why: AbortReason, answerSoFar: string): TurnEnding {
  switch (why) {
    case 'stopped':
      return { kind: 'stopped', text: answerSoFar };
    case 'canceled':
      return { kind: 'canceled' };
    case 'shutdown':
      return { kind: 'interrupted', note: INTERRUPTED_BY_SHUTDOWN, text: answerSoFar };
    case 'fenced':
      // Whoever took the turn over writes it, as for an instance that died.
      return { kind: 'interrupted', note: INTERRUPTED_BY_RESTART };
    default:
      return unhandled(why);
  }
}

/** The ending written from outside the turn, when its abort means one; undefined when the turn writes its own. */
export function endingFromOutside(turn: Turn): TurnEnding | undefined {
  const why = abortReasonOf(turn);
  const ending = why === undefined ? undefined : endingAfterAbort(why, '');
  return ending && writerOf(ending) === 'outside' ? ending : undefined;
}

export interface EndingTarget {
  taskId: string;
  contextId: string;
  context: ServerCallContext;
  /** The turns whose callers wait for this ending: each gets the final event. */
  turnIds: readonly string[];
  fence?: TurnRowWrite;
  /** Writes the ending only while the stored task is in one of these states. */
  onlyWhile?: readonly TaskState[];
}

class NotNow extends Error {}

/**
 * The one place a turn's end is written: the message it leaves, the state it
 * leaves the task in (`ruleOf`), and the final event every waiting stream
 * gets. Whoever ends a turn (the turn itself, /stop, CancelTask, a shutdown, a
 * restart, a surviving instance) ends it here.
 */
export class TurnEndings {
  constructor(private readonly deps: { store: HarnessTaskStore; events: TaskEvents }) {}

  /** Returns the head as stored, or undefined when nothing was written (task gone, fenced, or `onlyWhile`). */
  async end(target: EndingTarget, ending: TurnEnding): Promise<TaskHead | undefined> {
    const { taskId, contextId, context, onlyWhile } = target;
    const rule = ruleOf({ id: taskId, contextId }, ending);
    let ended: TaskHead | undefined;
    try {
      ended = await this.deps.store.update(taskId, context, {
        refuse: onlyWhile
          ? (head) => (onlyWhile.includes(head.status?.state ?? 0) ? undefined : new NotNow())
          : undefined,
        turnRow: target.fence,
        append: [rule.answerBefore, rule.message].filter((m): m is Message => m !== undefined),
        status: (current) => rule.status(current, rule.message),
        metadata: rule.metadata,
      });
    } catch (error) {
      if (error instanceof NotNow) return undefined;
      throw error;
    }
    const turnId = target.turnIds.find((id) => id !== '');
    const answer = rule.answer ? rule.message : rule.answerBefore;
    // Before the final event, so that a client that reads the task on it finds the artifact.
    if (ended && turnId && answer) {
      await this.deps.store.keepAnswerArtifact(
        taskId,
        context,
        answerArtifact(turnId, textOf(answer)),
      );
    }
    if (ended?.status) this.announce({ id: taskId, contextId }, ended.status, target.turnIds);
    return ended;
  }

  /** The final event, to every stream waiting on one of `turnIds` (and, with '', to SubscribeToTask). */
  announce(
    task: { id: string; contextId: string },
    final: TaskStatus,
    turnIds: readonly string[],
  ): void {
    const event = statusEvent(task, final);
    for (const turnId of turnIds) {
      this.deps.events.publish(task.id, { event, turnId, final: true });
    }
  }
}

/** An answer the model did not finish: what it wrote stays part of the conversation; the mark is for clients. */
function stoppedAnswer(task: { id: string; contextId: string }, text: string): Message {
  return { ...agentMessage(task, text), metadata: { [SETTINGS_KEY]: { stopped: true } } };
}

function finishedMessage(
  task: { id: string; contextId: string },
  ending: Extract<TurnEnding, { kind: 'finished' }>,
): Message {
  if (!ending.cut) return agentMessage(task, ending.text || EMPTY_ANSWER);
  // Kept, and said: the model's words stay context, the mark is for clients.
  return {
    ...agentMessage(task, `${ending.text}\n\n${CUT_NOTES[ending.cut]}`),
    metadata: { [SETTINGS_KEY]: { cut: ending.cut } },
  };
}

function countTurn(usage: TokenUsage) {
  return (metadata: TaskMetadata) => {
    const current = settingsOf(metadata);
    return withSettings(metadata, {
      turns: (current.turns ?? 0) + 1,
      usage: {
        inputTokens: (current.usage?.inputTokens ?? 0) + usage.inputTokens,
        outputTokens: (current.usage?.outputTokens ?? 0) + usage.outputTokens,
      },
    });
  };
}

/** Whether a stored agent message is an answer that `/stop` cut short. */
export { isStoppedAnswer } from 'a2a-chat-core';
