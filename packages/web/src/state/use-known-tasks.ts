import { useCallback, useEffect, useState } from 'react';
import { loadKnownTasks, rememberTask, type KnownTask } from '../a2a/known-tasks.js';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** This browser's tasks for the agent at `agentUrl`, kept in local storage. */
export function useKnownTasks(agentUrl: string): {
  tasks: KnownTask[];
  remember: (task: { id: string; contextId: string; title?: string }) => void;
} {
  const [tasks, setTasks] = useState(() => loadKnownTasks(storage(), agentUrl));

  useEffect(() => {
    setTasks(loadKnownTasks(storage(), agentUrl));
    // Another tab started a task: show it here too.
    const onStorage = () => setTasks(loadKnownTasks(storage(), agentUrl));
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [agentUrl]);

  const remember = useCallback(
    (task: { id: string; contextId: string; title?: string }) => {
      setTasks(rememberTask(storage(), agentUrl, task));
    },
    [agentUrl],
  );
  return { tasks, remember };
}
