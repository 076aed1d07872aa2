import type { StreamResponse } from '@a2a-js/sdk';
import { useEffect, useRef } from 'react';
import { describeError, isAbort, type Problem } from '../a2a/errors.js';
import type { AgentSession } from '../a2a/session.js';
import { isBusy, isTerminal } from '../a2a/task-states.js';

/** How long to wait before opening a stream the agent closed again. */
const REWATCH_MS = 1000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Whether an event of a task this page is not streaming itself shows that
 * someone else is using it: anything after the subscription's first snapshot
 * (a turn starting, a command reply), or a first snapshot of a running turn.
 */
export function showsActivity(event: StreamResponse, first: boolean): boolean {
  const payload = event.payload;
  if (first && payload?.$case === 'task') return isBusy(payload.value.status?.state);
  return payload !== undefined;
}

/**
 * Keeps a SubscribeToTask stream open on the open task while this page has no
 * stream of its own on it (`quiet`), so that what another tab or client does
 * there shows here. Subscribers get the agent's events, not the messages
 * another client sent (A2A streams carry task, status and artifact events), so
 * the first sign of activity calls `onActivity`, which reads the task again
 * (GetTask) and follows its turn. An agent that does not answer is reported
 * through `onUnreachable`; `reconnects` moving subscribes again.
 */
export function useTaskWatch(
  session: AgentSession | undefined,
  taskId: string | undefined,
  options: {
    quiet: boolean;
    reconnects: number;
    onActivity: (taskId: string) => void;
    onUnreachable: (problem: Problem) => void;
  },
): void {
  const { quiet, reconnects } = options;
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    if (!session || !taskId || !quiet) return;
    const controller = new AbortController();
    const { signal } = controller;
    /** Follows the task until activity shows (true) or the stream ends without any (false). */
    const watch = async (): Promise<boolean> => {
      let first = true;
      for await (const event of session.subscribe(taskId, signal)) {
        if (signal.aborted) return true;
        const payload = event.payload;
        // An ended task runs no more turns.
        if (first && payload?.$case === 'task' && isTerminal(payload.value.status?.state))
          return true;
        if (showsActivity(event, first)) {
          latest.current.onActivity(taskId);
          return true;
        }
        first = false;
      }
      return false;
    };
    void (async () => {
      try {
        // A stream the agent closed (a proxy's timeout, say) is opened again.
        while (!(await watch()) && !signal.aborted) await sleep(REWATCH_MS, signal);
      } catch (error) {
        if (signal.aborted || isAbort(error)) return;
        const problem = describeError(error, session.url, 'open');
        // Refusals (an ended task, an agent without SubscribeToTask) leave the page as it is.
        if (problem.unreachable) latest.current.onUnreachable(problem);
      }
    })();
    return () => controller.abort();
  }, [session, taskId, quiet, reconnects]);
}
