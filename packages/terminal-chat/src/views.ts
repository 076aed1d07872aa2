import { TaskState, type Task } from '@a2a-js/sdk';
import { shortTaskId } from 'a2a-chat-core';
import { isRunningState, isTerminalState } from 'a2a-commands/client';
import { sanitizeLine } from './sanitize.js';
import { emptyTranscript, transcripts, type Transcript } from './transcript.js';

/** The task the chat started with (or resumed); its view keeps this key when its task changes. */
export const HOME = 'home';

/** One task's transcript on screen: the home task, or a sub-task opened from a link. */
export interface TaskView extends Transcript {
  key: string;
  /** A turn is streaming in this view (the chat's own, or one it subscribed to). */
  busy: boolean;
}

export function emptyView(key: string): TaskView {
  return { ...emptyTranscript, key, busy: false };
}

export function isEnded(view: TaskView): boolean {
  return isTerminalState(view.state);
}

/** A turn is still running, so that subscribing shows it finish. */
export function isRunning(state: TaskState | undefined): boolean {
  return isRunningState(state);
}

/** A stored task, as GetTask read it, in a view. */
export function viewOf(task: Task, key: string): TaskView {
  return { ...transcripts.of(task), key, busy: false };
}

/** `TASK_STATE_INPUT_REQUIRED` → `input required`. */
export function stateWords(state: TaskState | undefined): string {
  if (state === undefined) return 'new';
  const name = TaskState[state] ?? 'unknown';
  return name
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, ' ');
}

/** An id cut short as every chat does it (its random end); ids come from the agent, so made safe first. */
export function shortId(id: string | undefined): string {
  return id ? shortTaskId(sanitizeLine(id)) : '—';
}
