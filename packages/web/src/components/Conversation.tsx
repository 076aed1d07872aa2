import { memo, useLayoutEffect, useRef, type ReactNode } from 'react';
import type { Entry } from '../a2a/transcript.js';
import { MessageBubble } from './MessageBubble.js';
import { Divider, NoteLine } from './NoteLine.js';
import { ReplyCard } from './ReplyCard.js';
import { keysShownByStopMark } from './stop-view.js';

/** The key of the newest entry the user sent. */
function lastSentOf(entries: readonly Entry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]!.kind === 'user') return entries[i]!.key;
  }
  return undefined;
}

/** The newest `/model` reply: only its picker checks the task's model. */
function latestModelReplyOf(entries: readonly Entry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind === 'reply' && entry.command === 'model') return entry.key;
  }
  return undefined;
}

/**
 * One entry of the transcript. The transcript keeps every unchanged entry as
 * the same object, so a chunk renders only the entry it grows: a long
 * conversation costs no more per chunk than a short one.
 */
const EntryItem = memo(function EntryItem({
  entry,
  onCommand,
  latestModel,
}: {
  entry: Entry;
  onCommand: (text: string) => Promise<unknown>;
  latestModel: boolean;
}) {
  return (
    <li className={`entry entry--${entry.kind}`}>
      {entry.kind === 'reply' ? (
        <ReplyCard entry={entry} onCommand={onCommand} latestModel={latestModel} />
      ) : entry.kind === 'note' ? (
        <NoteLine entry={entry} />
      ) : entry.kind === 'divider' ? (
        <Divider entry={entry} />
      ) : (
        <MessageBubble entry={entry} />
      )}
    </li>
  );
});

/** How close to the bottom counts as "at the bottom", in px: new output then scrolls into view. */
const STICK = 80;

/**
 * The transcript: prompts and answers as bubbles, commands and their replies
 * as compact cards. It follows new output while the reader is at the bottom.
 */
export function Conversation({
  chatId,
  entries,
  thinking,
  onCommand,
  empty,
}: {
  /** Which chat is shown (a task id, or none for a new chat): "at the bottom" is per chat. */
  chatId?: string;
  entries: readonly Entry[];
  /** A prompt is waiting for the model's first words. */
  thinking: boolean;
  onCommand: (text: string) => Promise<unknown>;
  empty: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const latestModel = latestModelReplyOf(entries);
  const stopMarked = keysShownByStopMark(entries);
  const visible = stopMarked.size === 0 ? entries : entries.filter((e) => !stopMarked.has(e.key));
  const atBottom = useRef(true);
  const shown = useRef({ chatId, lastSent: lastSentOf(entries) });

  useLayoutEffect(() => {
    const element = scroller.current;
    const lastSent = lastSentOf(entries);
    // Another chat opens at its end, and what you send (with its answer) is followed.
    if (shown.current.chatId !== chatId || shown.current.lastSent !== lastSent) {
      atBottom.current = true;
    }
    shown.current = { chatId, lastSent };
    if (element && atBottom.current) element.scrollTop = element.scrollHeight;
  }, [chatId, entries, thinking]);

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
            {visible.map((entry) => (
              <EntryItem
                key={entry.key}
                entry={entry}
                onCommand={onCommand}
                latestModel={entry.key === latestModel}
              />
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
