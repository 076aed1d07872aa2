import { CardWatch } from 'a2a-chat-core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, type Problem } from '../a2a/errors.js';
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
 * Keeps a connected session current. When the card is read again, and how an
 * agent that does not answer is tried again, is a2a-chat-core's `CardWatch`,
 * as in every client; the page adds a read whenever its window gets focus.
 * `cardVersion` moves when the card's commands changed; an outage sets
 * `offline`, and the agent's first answer after it moves `reconnects`.
 */
export function useLiveAgent(session: AgentSession | undefined, refreshMs: number): LiveAgent {
  const [offline, setOffline] = useState<Problem>();
  const [cardVersion, setCardVersion] = useState(0);
  const [reconnects, setReconnects] = useState(0);
  /** The watch of the session that is live now. */
  const watch = useRef<CardWatch>(undefined);

  useEffect(() => {
    setOffline(undefined);
    if (!session) return;
    const cards = new CardWatch({
      url: session.url,
      etag: session.cardEtag,
      refreshMs,
      changed: (card) => {
        session.takeCard(card).then(
          (changed) => {
            if (changed) setCardVersion((n) => n + 1);
          },
          // The caller's card could not be read: the commands shown stay until the next change.
          () => {},
        );
      },
      reachable: (error) => {
        if (error === undefined) {
          setOffline(undefined);
          setReconnects((n) => n + 1);
        } else {
          setOffline(isProblem(error) ? error : describeError(error, session.url, 'connect'));
        }
      },
    });
    watch.current = cards;
    // Coming back to the page: the commands may have changed meanwhile.
    const onFocus = () => void cards.check();
    window.addEventListener('focus', onFocus);
    cards.start();
    return () => {
      watch.current = undefined;
      window.removeEventListener('focus', onFocus);
      cards.close();
    };
  }, [session, refreshMs]);

  const reportUnreachable = useCallback((problem: Problem) => {
    if (problem.unreachable) watch.current?.lost(problem);
  }, []);

  return { offline, cardVersion, reconnects, reportUnreachable };
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'unreachable' in value && 'title' in value;
}
