import { Role, type Message } from '@a2a-js/sdk';
import { withoutCommands } from 'a2a-commands';
import type { ModelMessage } from 'ai';
import { isNote } from '../notes.js';

/** The text a person wrote or read in a message: its text parts, joined. */
export function textOf(message: Message): string {
  return message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * What the model is given of one message, part by part:
 * text as it is, data parts as their JSON text. File parts are refused at the
 * edge (serve/message-shape.ts), so none reach a turn; an old stored one is
 * named, not dropped in silence.
 */
export function modelTextOf(message: Message): string {
  const texts: string[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'text') {
      if (content.value !== '') texts.push(content.value);
    } else if (content?.$case === 'data') {
      texts.push(JSON.stringify(content.value));
    } else if (content?.$case === 'raw' || content?.$case === 'url') {
      texts.push(
        `[a file${part.filename ? ` named ${part.filename}` : ''} was attached; it is not shown to you]`,
      );
    }
  }
  return texts.join('\n');
}

/**
 * What the model sees of a conversation: SEMANTICS §3 leaves out every command
 * and command reply, and the harness's own notes (errors, interruptions) are
 * for the user only.
 */
export function modelContext(
  history: readonly Message[],
  turnMessageId?: string,
  /** The history before `history`, left out by a /clear: its questions may be answered in `history`. */
  before: readonly Message[] = [],
): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const owedBefore = unansweredMessages(before).length;
  for (const message of turnOrder(withoutCommands(history), turnMessageId, owedBefore)) {
    if (isNote(message)) continue;
    const text = modelTextOf(message);
    if (text === '') continue;
    messages.push(
      message.role === Role.ROLE_AGENT
        ? { role: 'assistant', content: text }
        : { role: 'user', content: text },
    );
  }
  return messages;
}

/**
 * History is stored in arrival order, so a message queued behind a running
 * turn sits before that turn's answer. Turns run in arrival order, so each
 * agent message (an answer, or a note) answers the oldest unanswered user
 * message: the exchanges are rebuilt that way, and a turn sees every earlier
 * exchange, then its own message. Messages queued after it are left out.
 */
function turnOrder(
  history: readonly Message[],
  turnMessageId: string | undefined,
  /** Questions from before a /clear still unanswered: the oldest, they take the first answers. */
  owedBefore: number,
): readonly Message[] {
  if (!turnMessageId) return history;
  const exchanges: Message[] = [];
  const unanswered: Message[] = [];
  for (const message of history) {
    if (message.role !== Role.ROLE_AGENT) {
      unanswered.push(message);
      continue;
    }
    // An answer that came after a /clear to a question from before it: neither is context.
    if (owedBefore > 0) {
      owedBefore -= 1;
      continue;
    }
    const question = unanswered.shift();
    if (question) exchanges.push(question);
    exchanges.push(message);
  }
  const own = unanswered.findIndex((m) => m.messageId === turnMessageId);
  return own < 0 ? history : [...exchanges, ...unanswered.slice(0, own + 1)];
}

/** The user messages no agent message answers yet, oldest first, paired as `answerTo` pairs them. */
export function unansweredMessages(history: readonly Message[]): Message[] {
  const unanswered: Message[] = [];
  for (const message of withoutCommands(history)) {
    if (message.role !== Role.ROLE_AGENT) unanswered.push(message);
    else unanswered.shift();
  }
  return unanswered;
}

/**
 * The agent message that ended the turn of user message `messageId` (its
 * answer, or a note), paired the way `turnOrder` pairs them; undefined while
 * that turn has not ended.
 */
export function answerTo(history: readonly Message[], messageId: string): Message | undefined {
  const unanswered: Message[] = [];
  for (const message of withoutCommands(history)) {
    if (message.role !== Role.ROLE_AGENT) {
      unanswered.push(message);
      continue;
    }
    if (unanswered.shift()?.messageId === messageId) return message;
  }
  return undefined;
}
