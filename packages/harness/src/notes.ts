import { Role, type Message } from '@a2a-js/sdk';
import { SETTINGS_KEY } from './settings.js';

/** Why the harness itself wrote a message: it is for the user, never for the model. */
export type NoteKind = 'interrupted' | 'model-error' | 'canceled';

export function noteMessage(
  taskId: string,
  contextId: string,
  kind: NoteKind,
  text: string,
): Message {
  return {
    messageId: crypto.randomUUID(),
    taskId,
    contextId,
    role: Role.ROLE_AGENT,
    parts: [
      {
        content: { $case: 'text', value: text },
        mediaType: 'text/plain',
        filename: '',
        metadata: undefined,
      },
    ],
    metadata: { [SETTINGS_KEY]: { note: kind } },
    extensions: [],
    referenceTaskIds: [],
  };
}

export function isNote(message: Pick<Message, 'metadata'>): boolean {
  const tag = message.metadata?.[SETTINGS_KEY] as { note?: unknown } | undefined;
  return typeof tag?.note === 'string';
}
