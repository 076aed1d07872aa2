import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { AgentEntry, Entry, Transcript } from 'a2a-chat-core';
import { dividerText, noteText, replyText, STOPPED_MARK } from './entry-text.js';

/** Where a command reply's structured form goes: the chunk's `_meta`, under this key. */
export const REPLY_META_KEY = 'a2aCommandReply';

/** One message as the editor has it so far. */
interface Shown {
  messageId: string;
  text: string;
}

/**
 * Turns a session's transcript, each time it changes, into the ACP updates
 * that bring the editor up to date. The transcript (a2a-chat-core) decides
 * what each A2A event means; this only says what is new since the last call:
 * a new entry becomes a message, a streaming answer that grew sends its new
 * text, and the final message that replaces an answer's preview sends only
 * what the preview lacked.
 */
export class TranscriptUpdates {
  private readonly shown = new Map<string, Shown>();

  constructor(private readonly agentUrl: string) {}

  /**
   * The updates from `before` to `after`. The user's own entries are sent only
   * when `users` (a replay: an editor shows what it sent itself); entries that
   * are `quiet` are taken as shown without being sent.
   */
  between(
    before: Transcript,
    after: Transcript,
    { users = false, quiet }: { users?: boolean; quiet?: (entry: Entry) => boolean } = {},
  ): SessionUpdate[] {
    if (before === after) return [];
    const updates: SessionUpdate[] = [];
    after.entries.forEach((entry, index) => {
      if (!this.shown.has(entry.key) && quiet?.(entry)) {
        this.shown.set(entry.key, { messageId: '', text: entry.text });
        return;
      }
      const update = this.updateFor(entry, before.entries[index], after, users);
      if (update) updates.push(update);
    });
    return updates;
  }

  private updateFor(
    entry: Entry,
    previous: Entry | undefined,
    after: Transcript,
    users: boolean,
  ): SessionUpdate | undefined {
    const known = this.shown.get(entry.key);
    if (entry.kind === 'agent') {
      const replaced =
        known ??
        (previous?.kind === 'agent' &&
        previous.key !== entry.key &&
        !after.entries.some((other) => other.key === previous.key)
          ? this.shown.get(previous.key)
          : undefined);
      return this.answer(entry, replaced);
    }
    if (known) return undefined;
    const messageId = crypto.randomUUID();
    switch (entry.kind) {
      case 'user': {
        if (!users) return undefined;
        this.shown.set(entry.key, { messageId, text: entry.text });
        return chunk('user_message_chunk', messageId, entry.text);
      }
      case 'reply': {
        const text = replyText(entry, this.agentUrl);
        this.shown.set(entry.key, { messageId, text });
        const meta = {
          command: entry.command,
          data: entry.data ?? null,
          taskRef: entry.taskRef ?? null,
        };
        return {
          ...chunk('agent_message_chunk', messageId, text),
          _meta: { [REPLY_META_KEY]: entry.error ? { ...meta, error: entry.error } : meta },
        };
      }
      case 'note':
        this.shown.set(entry.key, { messageId, text: entry.text });
        return chunk('agent_message_chunk', messageId, noteText(entry));
      case 'divider':
        this.shown.set(entry.key, { messageId, text: entry.text });
        return chunk('agent_message_chunk', messageId, dividerText(entry));
    }
  }

  /**
   * An answer: only what the editor lacks when it already has the start of
   * it, else all of it as a message of its own (text sent cannot be taken
   * back). A tail joined without the answer so far waits for the whole answer.
   */
  private answer(entry: AgentEntry, shown: Shown | undefined): SessionUpdate | undefined {
    if (entry.partial) return undefined;
    const text = entry.stopped ? entry.text + STOPPED_MARK : entry.text;
    if (shown && text.startsWith(shown.text)) {
      this.shown.set(entry.key, { messageId: shown.messageId, text });
      const added = text.slice(shown.text.length);
      return added === '' ? undefined : chunk('agent_message_chunk', shown.messageId, added);
    }
    const messageId = crypto.randomUUID();
    this.shown.set(entry.key, { messageId, text });
    return text === '' ? undefined : chunk('agent_message_chunk', messageId, text);
  }
}

function chunk(
  sessionUpdate: 'user_message_chunk' | 'agent_message_chunk',
  messageId: string,
  text: string,
): SessionUpdate {
  return { sessionUpdate, messageId, content: { type: 'text', text } };
}
