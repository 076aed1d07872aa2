import type { Message, Part, Role } from '@a2a-js/sdk';

/** `Role.ROLE_USER` and `Role.ROLE_AGENT`, without a runtime import of the SDK's root module. */
export const USER = 1 as Role;
export const AGENT = 2 as Role;

/** A text part in the SDK's in-memory shape. */
export function textPart(text: string, mediaType = 'text/plain'): Part {
  return { content: { $case: 'text', value: text }, mediaType, filename: '', metadata: undefined };
}

/** A data part in the SDK's in-memory shape. */
export function dataPart(data: unknown): Part {
  return {
    content: { $case: 'data', value: data },
    mediaType: 'application/json',
    filename: '',
    metadata: undefined,
  };
}

export interface MessageInit {
  role: Role;
  parts: Part[];
  taskId?: string;
  contextId?: string;
  metadata?: Record<string, unknown>;
  /** A fresh UUID when unset: a client that shows the message first passes its own. */
  messageId?: string;
}

/** A complete in-memory message, with a fresh `messageId` unless one is given. */
export function newMessage({
  role,
  parts,
  taskId = '',
  contextId = '',
  metadata,
  messageId,
}: MessageInit): Message {
  return {
    messageId: messageId ?? globalThis.crypto.randomUUID(),
    taskId,
    contextId,
    role,
    parts,
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}
