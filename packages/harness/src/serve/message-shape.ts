import { ContentTypeNotSupportedError, RequestMalformedError } from '@a2a-js/sdk/errors';
import { Role, type Message } from '@a2a-js/sdk';
import type { Limits } from '../config/limits.js';
import { limitWords } from '../config/limit-words.js';

/*
 * The SDK's readers coerce what they are given (`{text: {}}`
 * becomes "[object Object]", a message id 5 becomes "5", a part `1` becomes a
 * part with no content), and the result was stored. These checks refuse such
 * messages before anything is stored: the raw JSON first, in the guards, then
 * the message as read.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The message's string fields, in both spellings the SDK reads. */
const STRING_FIELDS = ['messageId', 'message_id', 'contextId', 'context_id', 'taskId', 'task_id'];
const PART_STRING_FIELDS = ['text', 'url', 'raw', 'filename', 'mediaType', 'media_type'];
const PART_KINDS = ['text', 'url', 'raw', 'data'];

/** What is wrong with the shape of a message as sent, or undefined when nothing is. */
export function messageShapeFault(message: unknown): string | undefined {
  if (message === undefined) return undefined;
  if (!isPlainObject(message)) return 'message must be an object.';
  for (const field of STRING_FIELDS) {
    if (field in message && typeof message[field] !== 'string')
      return `message.${field} must be a string.`;
  }
  if ('role' in message && typeof message.role !== 'string')
    return 'message.role must be a string such as "ROLE_USER".';
  for (const field of ['referenceTaskIds', 'reference_task_ids']) {
    const ids = message[field];
    if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')))
      return `message.${field} must be a list of strings.`;
  }
  if ('metadata' in message && message.metadata !== null && !isPlainObject(message.metadata))
    return 'message.metadata must be an object.';
  // 0.3's HTTP+JSON binding (protobuf JSON) names the parts `content`; the SDK reads either.
  return partsFault(message, 'parts') ?? partsFault(message, 'content');
}

function partsFault(
  message: Record<string, unknown>,
  field: 'parts' | 'content',
): string | undefined {
  const parts = message[field];
  if (parts === undefined) return undefined;
  if (!Array.isArray(parts)) return `message.${field} must be a list.`;
  for (const [index, part] of parts.entries()) {
    if (!isPlainObject(part)) return `message.${field}[${index}] must be an object.`;
    for (const name of PART_STRING_FIELDS) {
      if (name in part && typeof part[name] !== 'string')
        return `message.${field}[${index}].${name} must be a string.`;
    }
    const kinds = PART_KINDS.filter((kind) => part[kind] !== undefined);
    if (kinds.length !== 1)
      return `message.${field}[${index}] must have exactly one of text, data, url or raw.`;
  }
  return undefined;
}

export type MessageCheckLimits = Pick<Limits, 'idChars'>;

/**
 * The message as read: sent by the user (an agent message from a client
 * would be stored as the agent's), ids of bounded length (a 500 KB
 * contextId was repeated in every later message), and content the model can
 * be given: text or data. Files are refused: the card's input modes do not
 * name them, and no model here is given them.
 */
export function checkMessageContent(
  message: Message | undefined,
  limits: MessageCheckLimits,
): void {
  if (!message) return;
  if (message.role !== Role.ROLE_USER)
    throw new RequestMalformedError('message.role must be ROLE_USER: clients send user messages.');
  const ids: [string, string][] = [
    ['messageId', message.messageId],
    ['taskId', message.taskId],
    ['contextId', message.contextId],
    ...message.referenceTaskIds.map((id): [string, string] => ['referenceTaskIds', id]),
  ];
  for (const [field, id] of ids) {
    // PostgreSQL's text cannot hold U+0000: refused on every database alike.
    if (id.includes('\u0000'))
      throw new RequestMalformedError(
        `message.${field} must not contain a NUL character (U+0000).`,
      );
    if (id.length > limits.idChars)
      throw new RequestMalformedError(limitWords.idChars(field, limits.idChars));
  }
  for (const part of message.parts) {
    const kind = part.content?.$case;
    if (kind === undefined)
      throw new RequestMalformedError('Every part needs content: text, data, url or raw.');
    if (kind === 'raw' || kind === 'url')
      throw new ContentTypeNotSupportedError(
        'This agent does not take file parts (url or raw); send text, or JSON as a data part.',
      );
  }
  const hasContent = message.parts.some(
    (part) =>
      part.content?.$case === 'data' ||
      (part.content?.$case === 'text' && part.content.value.trim() !== ''),
  );
  if (message.parts.length > 0 && !hasContent)
    throw new RequestMalformedError(
      'The message has no content: it needs a text part that is not blank, or a data part.',
    );
}
