import { TaskState, taskStateFromJSON } from '@a2a-js/sdk';
import { isRunningState, isTerminalState } from 'a2a-commands/client';

/** How a state looks in the UI: its words, and a tone the styles colour. */
export interface StateLook {
  label: string;
  tone: 'busy' | 'idle' | 'quiet' | 'done' | 'bad' | 'muted';
}

const LOOKS: Partial<Record<TaskState, StateLook>> = {
  [TaskState.TASK_STATE_SUBMITTED]: { label: 'submitted', tone: 'busy' },
  [TaskState.TASK_STATE_WORKING]: { label: 'working', tone: 'busy' },
  // SEMANTICS §4: input-required is the idle state, waiting for the next message:
  // nothing is wrong, so it reads as quiet words, not a coloured alert.
  [TaskState.TASK_STATE_INPUT_REQUIRED]: { label: 'ready', tone: 'quiet' },
  [TaskState.TASK_STATE_AUTH_REQUIRED]: { label: 'auth required', tone: 'idle' },
  [TaskState.TASK_STATE_COMPLETED]: { label: 'completed', tone: 'done' },
  [TaskState.TASK_STATE_FAILED]: { label: 'failed', tone: 'bad' },
  [TaskState.TASK_STATE_REJECTED]: { label: 'rejected', tone: 'bad' },
  [TaskState.TASK_STATE_CANCELED]: { label: 'canceled', tone: 'muted' },
};

export function stateLook(state: TaskState | undefined): StateLook {
  return (state !== undefined && LOOKS[state]) || { label: 'unknown', tone: 'muted' };
}

/** A model turn is running (or about to). */
export function isBusy(state: TaskState | undefined): boolean {
  return isRunningState(state);
}

/** The task has ended: ordinary messages are refused, commands still run (SEMANTICS §4). */
export function isTerminal(state: TaskState | undefined): boolean {
  return isTerminalState(state);
}

/** A state from the SDK's enum or its wire name (`TASK_STATE_WORKING`). */
export function toTaskState(value: unknown): TaskState | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const state = taskStateFromJSON(value);
  return state === TaskState.UNRECOGNIZED ? undefined : state;
}
