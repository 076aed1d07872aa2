import { useCallback, useEffect, useState } from 'react';
import { describeError, type Problem } from '../a2a/errors.js';
import { AgentSession } from '../a2a/session.js';

export type AgentStatus =
  | { kind: 'connecting' }
  | { kind: 'ready'; session: AgentSession }
  | { kind: 'failed'; problem: Problem };

/** Connects to the agent at `url` with `apiKey` (again whenever either changes, or on `retry`). */
export function useAgent(
  url: string,
  apiKey: string | undefined,
): { status: AgentStatus; retry: () => void } {
  const [status, setStatus] = useState<AgentStatus>({ kind: 'connecting' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setStatus({ kind: 'connecting' });
    AgentSession.connect(url, apiKey).then(
      (session) => {
        if (current) setStatus({ kind: 'ready', session });
      },
      (error: unknown) => {
        if (current) setStatus({ kind: 'failed', problem: describeError(error, url, 'connect') });
      },
    );
    return () => {
      current = false;
    };
  }, [url, apiKey, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { status, retry };
}
