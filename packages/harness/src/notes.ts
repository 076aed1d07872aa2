import type { Message } from '@a2a-js/sdk';
import { AGENT, newMessage, textPart } from 'a2a-commands';
import { SETTINGS_KEY } from './settings.js';

/** Why the harness itself wrote a message: it is for the user, never for the model. */
export type NoteKind = 'interrupted' | 'model-error' | 'canceled' | 'stopped';

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

export function isNote(message: Pick<Message, 'metadata'>): boolean {
  const tag = message.metadata?.[SETTINGS_KEY] as { note?: unknown } | undefined;
  return typeof tag?.note === 'string';
}
