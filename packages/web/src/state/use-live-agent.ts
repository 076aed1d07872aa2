import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, isAbort, type Problem } from '../a2a/errors.js';
import { reconnectDelayMs } from '../a2a/live-agent.js';
import type { AgentSession } from '../a2a/session.js';

export interface LiveAgent {
  /** Set while the agent cannot be reached: what went wrong (it is being tried again). */
  offline?: Problem;
  /** Moves each time the card's commands change: the command list to offer is new. */
  cardVersion: number;
  /** Moves each time the agent answers again after an outage: read again what is open. */
  reconnects: number;
  /** Another call (a stream, the task list) found the agent unreachable: start retrying now. */
  reportUnreachable: (problem: Problem) => void;
}

/**
 * Keeps a connected session current. While the agent answers, its card is read
 * again every `refreshMs` and when the window gets focus, conditionally (a 304
 * when nothing changed), and `cardVersion` moves when its commands changed.
 * When a read cannot reach the agent, or another call reports it unreachable,
 * the agent is `offline` and is tried again with a growing delay
 * (reconnectDelayMs); its first answer after that moves `reconnects`.
 */
export function useLiveAgent(session: AgentSession | undefined, refreshMs: number): LiveAgent {
  const [offline, setOffline] = useState<Problem>();
  const [cardVersion, setCardVersion] = useState(0);
  const [reconnects, setReconnects] = useState(0);
  /** Failed reads in a row: 0 while the agent answers. */
  const failures = useRef(0);
  /** Reads the card now (and schedules the next read); set while a session is live. */
  const readNow = useRef<() => void>(() => {});

  useEffect(() => {
    failures.current = 0;
    setOffline(undefined);
    if (!session) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let reading = false;
    const schedule = () => {
      clearTimeout(timer);
      const down = failures.current > 0;
      timer = setTimeout(read, down ? reconnectDelayMs(failures.current - 1) : refreshMs);
    };
    const read = async () => {
      if (reading) return;
      reading = true;
      clearTimeout(timer);
      try {
        const changed = await session.refreshCard(controller.signal);
        if (controller.signal.aborted) return;
        if (changed) setCardVersion((n) => n + 1);
        if (failures.current > 0) {
          failures.current = 0;
          setOffline(undefined);
          setReconnects((n) => n + 1);
        }
      } catch (error) {
        if (controller.signal.aborted || isAbort(error)) return;
        const problem = describeError(error, session.url, 'connect');
        // Only an agent that does not answer is an outage; a refused read changes nothing.
        if (problem.unreachable) {
          failures.current += 1;
          setOffline(problem);
        }
      } finally {
        reading = false;
        if (!controller.signal.aborted) schedule();
      }
    };
    readNow.current = () => void read();
    // Coming back to the page: the commands may have changed meanwhile.
    const onFocus = () => void read();
    window.addEventListener('focus', onFocus);
    schedule();
    return () => {
      readNow.current = () => {};
      window.removeEventListener('focus', onFocus);
      clearTimeout(timer);
      controller.abort();
    };
  }, [session, refreshMs]);

  const reportUnreachable = useCallback((problem: Problem) => {
    if (!problem.unreachable || failures.current > 0) return;
    failures.current = 1;
    setOffline(problem);
    readNow.current();
  }, []);

  return { offline, cardVersion, reconnects, reportUnreachable };
}
