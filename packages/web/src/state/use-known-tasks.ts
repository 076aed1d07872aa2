import { useCallback, useEffect, useState } from 'react';
import { keyFingerprint } from '../a2a/api-key.js';
import {
  forgetTask,
  loadKnownTasks,
  rememberTask,
  taskListScope,
  type KnownTask,
} from '../a2a/known-tasks.js';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Whose task list to show: the agent URL, plus the key's fingerprint when
 * there is a key. Undefined while the fingerprint is being worked out, so a
 * new key never reads or writes the list of the key before it.
 */
export function useTaskListScope(agentUrl: string, apiKey: string | undefined): string | undefined {
  const [hashed, setHashed] = useState<{ key: string; fingerprint: string }>();

  useEffect(() => {
    if (!apiKey) return;
    let current = true;
    void keyFingerprint(apiKey).then((fingerprint) => {
      if (current) setHashed({ key: apiKey, fingerprint });
    });
    return () => {
      current = false;
    };
  }, [apiKey]);

  if (!apiKey) return taskListScope(agentUrl);
  return hashed?.key === apiKey ? taskListScope(agentUrl, hashed.fingerprint) : undefined;
}

/** This browser's tasks in `scope` (see {@link useTaskListScope}), kept in local storage. */
export function useKnownTasks(scope: string | undefined): {
  tasks: KnownTask[];
  remember: (task: { id: string; contextId: string; title?: string }) => void;
  /** The agent says it has no such task: drop it from the list. */
  forget: (id: string) => void;
} {
  const [tasks, setTasks] = useState(() =>
    scope === undefined ? [] : loadKnownTasks(storage(), scope),
  );

  useEffect(() => {
    if (scope === undefined) {
      setTasks([]);
      return;
    }
    setTasks(loadKnownTasks(storage(), scope));
    // Another tab started a task: show it here too.
    const onStorage = () => setTasks(loadKnownTasks(storage(), scope));
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [scope]);

  const remember = useCallback(
    (task: { id: string; contextId: string; title?: string }) => {
      if (scope !== undefined) setTasks(rememberTask(storage(), scope, task));
    },
    [scope],
  );
  const forget = useCallback(
    (id: string) => {
      if (scope !== undefined) setTasks(forgetTask(storage(), scope, id));
    },
    [scope],
  );
  return { tasks, remember, forget };
}
