import type { Task } from '@a2a-js/sdk';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { describeError, isAbort, type Problem } from '../a2a/errors.js';
import type { KnownTask } from '../a2a/known-tasks.js';
import type { AgentSession } from '../a2a/session.js';
import { isBusy } from '../a2a/task-states.js';
import { contextsOf, taskRows, type TaskRow } from '../a2a/task-list.js';

/** How often the list is read again while a task in it is working (a spawned sub-task, say). */
export const POLL_MS = 2500;

/**
 * The sidebar's tasks: this browser's tasks and every task of their contexts
 * (ListTasks by context; `/tasks` for an agent without ListTasks). Read again
 * on `refresh`, and every few seconds while one of them is working.
 */
export function useTaskList(
  session: AgentSession | undefined,
  known: readonly KnownTask[],
): { rows: TaskRow[]; problem?: Problem; refresh: () => void } {
  const [listed, setListed] = useState<Task[]>([]);
  const [problem, setProblem] = useState<Problem>();
  const [version, setVersion] = useState(0);
  // Listing by `/tasks` writes to a task's history: never on a timer.
  const [byCommand, setByCommand] = useState(false);
  const knownRef = useRef(known);
  knownRef.current = known;
  const listedRef = useRef(listed);
  listedRef.current = listed;
  const contexts = contextsOf(known).join('\n');

  useEffect(() => {
    setListed([]);
    setProblem(undefined);
  }, [session]);

  useEffect(() => {
    if (!session || contexts === '') return;
    const controller = new AbortController();
    const ids = contexts.split('\n');
    void Promise.all(
      ids.map(async (contextId) => {
        try {
          return {
            tasks: await session.listContext(contextId, controller.signal),
            byCommand: false,
          };
        } catch (error) {
          if (isAbort(error)) return { tasks: [], byCommand: false };
          const via = knownRef.current.find((task) => task.contextId === contextId);
          try {
            const tasks = via ? await session.listContextByCommand(via.id, contextId) : [];
            if (tasks.length > 0) return { tasks, byCommand: true };
          } catch {
            // Report the ListTasks error below: it says more.
          }
          // During an outage the last listing stays: sub-tasks keep their place under their parents.
          const kept = listedRef.current.filter((task) => task.contextId === contextId);
          return { tasks: kept, byCommand: false, error };
        }
      }),
    ).then((results) => {
      if (controller.signal.aborted) return;
      setListed(results.flatMap((result) => result.tasks));
      setByCommand(results.some((result) => result.byCommand));
      const failed = results.find((result) => result.error !== undefined);
      setProblem(failed ? describeError(failed.error, session.url, 'list') : undefined);
    });
    return () => controller.abort();
  }, [session, contexts, version]);

  const rows = useMemo(() => taskRows(known, listed), [known, listed]);
  const busy = !byCommand && rows.some((row) => isBusy(row.state));

  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(() => setVersion((n) => n + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [busy, listed]);

  const refresh = useCallback(() => setVersion((n) => n + 1), []);
  return { rows, problem, refresh };
}
