import { useCallback, useEffect, useState } from 'react';
import { taskHref, taskIdFromHash } from './task-hash.js';

/** The task id in the hash, and a way to change it. */
export function useHashTask(): {
  taskId: string | undefined;
  /**
   * Opens a task (a new history entry), or a new chat with `undefined`;
   * `search` replaces the query string too (another agent).
   */
  go: (id: string | undefined, search?: string) => void;
  /** Names the task now shown without a new history entry (a new chat got its task). */
  replace: (id: string) => void;
} {
  const [taskId, setTaskId] = useState(() => taskIdFromHash(window.location.hash));

  useEffect(() => {
    const onChange = () => setTaskId(taskIdFromHash(window.location.hash));
    // Back and Forward across pushState entries fire popstate; typed or linked hashes, hashchange.
    window.addEventListener('hashchange', onChange);
    window.addEventListener('popstate', onChange);
    return () => {
      window.removeEventListener('hashchange', onChange);
      window.removeEventListener('popstate', onChange);
    };
  }, []);

  const go = useCallback((id: string | undefined, search = window.location.search) => {
    const { pathname } = window.location;
    window.history.pushState(
      null,
      '',
      `${pathname}${search}${id === undefined ? '' : taskHref(id)}`,
    );
    setTaskId(id);
  }, []);

  const replace = useCallback((id: string) => {
    const { pathname, search } = window.location;
    window.history.replaceState(null, '', `${pathname}${search}${taskHref(id)}`);
    setTaskId(id);
  }, []);

  return { taskId, go, replace };
}
