import { useCallback, useEffect, useState } from 'react';

/*
 * Tasks hidden from the sidebar, per task list (agent URL and key), in local
 * storage. Hiding is this browser's tidying: the task stays on the agent.
 */

const PREFIX = 'a2a-web-chat:v1:hidden:';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function load(scope: string): Set<string> {
  try {
    const raw: unknown = JSON.parse(storage()?.getItem(PREFIX + scope) ?? '[]');
    return new Set(Array.isArray(raw) ? raw.filter((id) => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

export function useHiddenTasks(scope: string | undefined): {
  hidden: ReadonlySet<string>;
  setHidden: (id: string, hide: boolean) => void;
} {
  const [hidden, setHiddenSet] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setHiddenSet(scope === undefined ? new Set() : load(scope)), [scope]);

  const setHidden = useCallback(
    (id: string, hide: boolean) => {
      if (scope === undefined) return;
      const next = load(scope);
      if (hide) next.add(id);
      else next.delete(id);
      try {
        storage()?.setItem(PREFIX + scope, JSON.stringify([...next]));
      } catch {
        // Storage full or refused: hidden for this page only.
      }
      setHiddenSet(next);
    },
    [scope],
  );
  return { hidden, setHidden };
}
