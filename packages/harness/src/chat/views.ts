import { TaskState, type Task } from '@a2a-js/sdk';
import { sanitizeLine } from './sanitize.js';
import type { Entry } from './transcript.js';

/** The task the chat started with (or resumed); its view keeps this key when its task changes. */
export const HOME = 'home';

/** One task's transcript on screen: the home task, or a sub-task opened from a link. */
export interface TaskView {
  key: string;
  /** Undefined until the first message creates the task. */
  taskId?: string;
  contextId?: string;
  /** The last state seen. */
  state?: TaskState;
  entries: Entry[];
  /** A turn is streaming in this view (the chat's own, or one it subscribed to). */
  busy: boolean;
}

export const TERMINAL: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** States in which a turn is still running, so that subscribing shows it finish. */
export const RUNNING: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

export function isEnded(view: TaskView): boolean {
  return view.state !== undefined && TERMINAL.has(view.state);
}

export function viewOf(task: Task, key: string, entries: Entry[]): TaskView {
  return {
    key,
    taskId: task.id,
    contextId: task.contextId,
    state: task.status?.state,
    entries,
    busy: false,
  };
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

/** The first 8 characters of an id: enough to tell tasks apart on screen. Ids come from the agent. */
export function shortId(id: string | undefined): string {
  return id ? sanitizeLine(id).slice(0, 8) : '—';
}
