import { TaskState, type Message, type TaskStatus } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskHead } from 'a2a-commands/server';
import { noteMessage } from '../notes.js';
import { SETTINGS_KEY, settingsOf, withSettings, type TokenUsage } from '../settings.js';
import type { AlongsideWrite, HarnessTaskStore } from '../store/index.js';
import type { TaskEvents } from './task-events.js';
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
 * Every way a turn ends, but cancel (which ends the task, see `announce`):
 * - finished: the model's answer is stored;
 * - model-error: the model failed; its error, in words, is the note;
 * - stopped: `/stop`; the answer so far is stored, marked stopped (SEMANTICS §4);
 * - failed: the harness failed outside the model call;
 * - interrupted: the server stopped, shut down, or the instance running it died.
 */
export type TurnEnding =
  | { kind: 'finished'; text: string; usage: TokenUsage; cut?: 'answer-limit' | 'incomplete' }
  | { kind: 'model-error'; reason: string }
  | { kind: 'stopped'; text: string }
  | { kind: 'failed' }
  | { kind: 'interrupted'; note: string };

export interface EndingTarget {
  taskId: string;
  contextId: string;
  context: ServerCallContext;
  /** The turns whose callers wait for this ending: each gets the final event. */
  turnIds: readonly string[];
  fence?: AlongsideWrite;
  /** Writes the ending only while the stored task is in one of these states. */
  onlyWhile?: readonly TaskState[];
}

class NotNow extends Error {}

/**
 * The one place a turn's end is written: the message it leaves, the task back
 * in input-required (unless CancelTask ended it meanwhile), and the final
 * event every waiting stream gets. Whoever ends a turn (the turn itself, /stop,
 * a shutdown, a restart, a surviving instance) ends it here.
 */
export class TurnEndings {
  constructor(private readonly deps: { store: HarnessTaskStore; events: TaskEvents }) {}

  /** Returns the head as stored, or undefined when nothing was written (task gone, fenced, or `onlyWhile`). */
  async end(target: EndingTarget, ending: TurnEnding): Promise<TaskHead | undefined> {
    const { taskId, contextId, context, onlyWhile } = target;
    const message = messageFor(taskId, contextId, ending);
    let ended: TaskHead | undefined;
    try {
      ended = await this.deps.store.update(taskId, context, {
        refuse: onlyWhile
          ? (head) => (onlyWhile.includes(head.status?.state ?? 0) ? undefined : new NotNow())
          : undefined,
        alongside: target.fence,
        append: [message],
        status: (current) =>
          TERMINAL_STATES.has(current?.state ?? 0)
            ? current
            : status(TaskState.TASK_STATE_INPUT_REQUIRED, message),
        metadata: ending.kind === 'finished' ? countTurn(ending.usage) : undefined,
      });
    } catch (error) {
      if (error instanceof NotNow) return undefined;
      throw error;
    }
    const turnId = target.turnIds.find((id) => id !== '');
    // Before the final event, so that a client that reads the task on it finds the artifact.
    if (ended && turnId && leavesAnswer(ending)) {
      await this.deps.store.keepAnswerArtifact(
        taskId,
        context,
        answerArtifact(turnId, textOf(message)),
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

/** A finished turn, or one `/stop` cut after the model wrote something, leaves an answer. */
function leavesAnswer(ending: TurnEnding): boolean {
  return ending.kind === 'finished' || (ending.kind === 'stopped' && ending.text !== '');
}

function messageFor(taskId: string, contextId: string, ending: TurnEnding): Message {
  const task = { id: taskId, contextId };
  switch (ending.kind) {
    case 'finished':
      if (!ending.cut) return agentMessage(task, ending.text || EMPTY_ANSWER);
      // Kept, and said: the model's words stay context, the mark is for clients.
      return {
        ...agentMessage(task, `${ending.text}\n\n${CUT_NOTES[ending.cut]}`),
        metadata: { [SETTINGS_KEY]: { cut: ending.cut } },
      };
    case 'model-error':
      return noteMessage(taskId, contextId, 'model-error', ending.reason);
    case 'stopped':
      // What the model wrote stays part of the conversation; the mark is for clients.
      return ending.text
        ? { ...agentMessage(task, ending.text), metadata: { [SETTINGS_KEY]: { stopped: true } } }
        : noteMessage(taskId, contextId, 'stopped', STOPPED_BEFORE_ANSWER);
    case 'failed':
      return noteMessage(taskId, contextId, 'interrupted', TURN_FAILED_NOTE);
    case 'interrupted':
      return noteMessage(taskId, contextId, 'interrupted', ending.note);
  }
}

function countTurn(usage: TokenUsage) {
  return (metadata: Record<string, unknown>) => {
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
