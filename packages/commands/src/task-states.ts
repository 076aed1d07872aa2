import { TaskState } from '@a2a-js/sdk';

/**
 * A2A's terminal task states. SEMANTICS §4: an ordinary message to such a task
 * is refused, but commands still run on it and leave the state as it was.
 */
export const TERMINAL_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** The states in which a model turn is running, or about to. */
export const RUNNING_STATES: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

/** Whether the task has ended for good (SEMANTICS §4: commands still run on it). */
export function isTerminalState(state: TaskState | undefined): boolean {
  return state !== undefined && TERMINAL_STATES.has(state);
}

/** Whether a model turn is running on the task (or about to). */
export function isRunningState(state: TaskState | undefined): boolean {
  return state !== undefined && RUNNING_STATES.has(state);
}
