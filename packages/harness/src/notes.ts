import type { Message } from '@a2a-js/sdk';
import { AGENT, newMessage, textPart } from 'a2a-commands';
import type { NoteKind } from 'a2a-chat-core';
import { SETTINGS_KEY } from './settings.js';

// The note mark is read by every client: its reader lives in the library.
export { isNote, type NoteKind } from 'a2a-chat-core';

export function noteMessage(
  taskId: string,
  contextId: string,
  kind: NoteKind,
  text: string,
): Message {
  return newMessage({
    role: AGENT,
    parts: [textPart(text)],
    taskId,
    contextId,
    metadata: { [SETTINGS_KEY]: { note: kind } },
  });
}
