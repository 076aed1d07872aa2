import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { TaskState } from '@a2a-js/sdk';
import { afterEach, expect, it, vi } from 'vitest';
import type { AgentSession } from '../src/a2a/session.js';
import { useChat } from '../src/state/use-chat.js';
import { message, task } from './fixtures.js';

/*
 * Reading the open task again (after a reconnect, or on another tab's
 * activity) can fail while the agent is going down or starting: the
 * conversation on screen stays, and the failure is said. Opening another
 * task that fails still clears the view.
 */

afterEach(cleanup);

it('a failed re-read of the task on screen keeps its conversation; a failed open of another clears it', async () => {
  const stored = {
    ...task(TaskState.TASK_STATE_INPUT_REQUIRED, [message('user', 'a question')]),
    id: 't1',
  };
  let up = true;
  const session = {
    url: 'http://agent.test',
    commands: [],
    getTask: vi.fn(async (id: string) => {
      if (!up) throw new TypeError('Failed to fetch');
      return { ...stored, id };
    }),
  } as unknown as AgentSession;
  const options = {
    onTaskSeen: vi.fn(),
    onTaskMissing: vi.fn(),
    onTaskCreated: vi.fn(),
    onActivity: vi.fn(),
  };
  const { result } = renderHook(() => useChat(session, options));

  act(() => result.current.open('t1'));
  await waitFor(() => expect(result.current.transcript.entries).toHaveLength(1));
  up = false;
  act(() => result.current.open('t1'));
  await waitFor(() => expect(result.current.problem?.unreachable).toBe(true));
  expect(result.current.transcript.taskId).toBe('t1');
  expect(result.current.transcript.entries).toHaveLength(1);

  act(() => result.current.open('t2'));
  await waitFor(() => expect(result.current.loading).toBe(false));
  expect(result.current.transcript.taskId).toBeUndefined();
});
