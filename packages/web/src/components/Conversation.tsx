import { memo, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { Entry } from '../a2a/transcript.js';
import { MessageBubble, type MessageActions } from './MessageBubble.js';
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

/** The last prompt (not a command), and the answer after it, if any: the ones with actions. */
function lastExchangeOf(entries: readonly Entry[]): { prompt?: string; answer?: string } {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind !== 'user' || entry.command) continue;
    const answer = entries.slice(i + 1).findLast((later) => later.kind === 'agent');
    return { prompt: entry.key, answer: answer?.key };
  }
  return {};
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
  onEdit,
  onRegenerate,
}: {
  entry: Entry;
  onCommand: (text: string) => Promise<unknown>;
  latestModel: boolean;
} & MessageActions) {
  return (
    <li className={`entry entry--${entry.kind}`}>
      {entry.kind === 'reply' ? (
        <ReplyCard entry={entry} onCommand={onCommand} latestModel={latestModel} />
      ) : entry.kind === 'note' ? (
        <NoteLine entry={entry} />
      ) : entry.kind === 'divider' ? (
        <Divider entry={entry} />
      ) : (
        <MessageBubble entry={entry} onEdit={onEdit} onRegenerate={onRegenerate} />
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
  onEdit,
  onRegenerate,
}: MessageActions & {
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
  /** Scrolled up from the end: "Jump to latest" shows. */
  const [behind, setBehind] = useState(false);
  const last = lastExchangeOf(entries);
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
    setBehind(!atBottom.current);
  }, [chatId, entries, thinking]);

  const jumpToLatest = () => {
    const element = scroller.current;
    if (!element) return;
    atBottom.current = true;
    element.scrollTo({ top: element.scrollHeight });
    setBehind(false);
  };

  return (
    <div
      className="conversation"
      ref={scroller}
      onScroll={(event) => {
        const element = event.currentTarget;
        atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK;
        setBehind(!atBottom.current);
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
                onEdit={entry.key === last.prompt ? onEdit : undefined}
                onRegenerate={entry.key === last.answer ? onRegenerate : undefined}
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
      {behind && (
        <button type="button" className="jump-latest" onClick={jumpToLatest}>
          Jump to latest <span aria-hidden="true">↓</span>
        </button>
      )}
    </div>
  );
}
