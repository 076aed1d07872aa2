import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { isRunningState, isTerminalState } from './task-states.js';

describe('task states', () => {
  it('knows the terminal states and the running ones', () => {
    expect(isTerminalState(TaskState.TASK_STATE_CANCELED)).toBe(true);
    expect(isTerminalState(TaskState.TASK_STATE_INPUT_REQUIRED)).toBe(false);
    expect(isTerminalState(undefined)).toBe(false);
    expect(isRunningState(TaskState.TASK_STATE_WORKING)).toBe(true);
    expect(isRunningState(TaskState.TASK_STATE_COMPLETED)).toBe(false);
  });
});
