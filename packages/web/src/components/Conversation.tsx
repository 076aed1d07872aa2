import { useLayoutEffect, useRef, type ReactNode } from 'react';
import type { Entry } from '../a2a/transcript.js';
import { MessageBubble } from './MessageBubble.js';
import { ReplyCard } from './ReplyCard.js';

/** How close to the bottom counts as "at the bottom", in px: new output then scrolls into view. */
const STICK = 80;

/**
 * The transcript: prompts and answers as bubbles, commands and their replies
 * as compact cards. It follows new output while the reader is at the bottom.
 */
export function Conversation({
  entries,
  thinking,
  onCommand,
  empty,
}: {
  entries: readonly Entry[];
  /** A prompt is waiting for the model's first words. */
  thinking: boolean;
  onCommand: (text: string) => Promise<unknown>;
  empty: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [entries, thinking]);

  return (
    <div
      className="conversation"
      ref={scroller}
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK;
      }}
    >
      {entries.length === 0 && !thinking ? (
        empty
      ) : (
        <div role="log" aria-label="Conversation" aria-live="polite">
          <ol className="entries">
            {entries.map((entry) => (
              <li key={entry.key} className={`entry entry--${entry.kind}`}>
                {entry.kind === 'reply' ? (
                  <ReplyCard entry={entry} onCommand={onCommand} />
                ) : (
                  <MessageBubble entry={entry} />
                )}
              </li>
            ))}
            {thinking && (
              <li className="entry entry--agent">
                <div className="msg msg--agent">
                  <div className="bubble bubble--agent thinking" role="status">
                    <span className="sr-only">The agent is thinking</span>
                    <span className="thinking-dot" aria-hidden="true" />
                    <span className="thinking-dot" aria-hidden="true" />
                    <span className="thinking-dot" aria-hidden="true" />
                  </div>
                </div>
              </li>
            )}
          </ol>
        </div>
      )}
    </div>
  );
}
