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
 * What the model sees of a conversation: SEMANTICS §3 leaves out every command
 * and command reply, and the harness's own notes (errors, interruptions) are
 * for the user only.
 */
export function modelContext(history: readonly Message[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const message of withoutCommands(history)) {
    if (isNote(message)) continue;
    const text = textOf(message);
    if (text === '') continue;
    messages.push(
      message.role === Role.ROLE_AGENT
        ? { role: 'assistant', content: text }
        : { role: 'user', content: text },
    );
  }
  return messages;
}
