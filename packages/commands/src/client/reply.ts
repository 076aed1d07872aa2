import type { Message, Task, TaskStatus } from '@a2a-js/sdk';
import {
  REPLY_ERROR_CODE_PATTERN,
  type CommandReplyError,
  type CommandReplyMetadata,
} from '../spec.js';

/*
 * Reading command replies (SEMANTICS §3) from whatever a client holds: a
 * TaskStatusUpdateEvent, a StreamResponse, a Message or a Task, each in the
 * SDK's in-memory shape or as wire JSON. Nothing here throws on odd input.
 */

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Role agent in any of its spellings: the enum value 2 or the JSON name. */
function isAgentRole(role: unknown): boolean {
  return role === 2 || role === 'ROLE_AGENT';
}

function isMessage(x: Obj): boolean {
  return Array.isArray(x['parts']) && ('role' in x || 'messageId' in x);
}

function isTask(x: Obj): boolean {
  return 'id' in x || 'history' in x || 'artifacts' in x;
}

/** Unwraps a StreamResponse or SendMessageResponse (in-memory or wire) to its payload. */
function unwrap(x: Obj): unknown {
  const payload = x['payload'];
  if (isObject(payload) && typeof payload['$case'] === 'string') return payload['value'];
  for (const key of ['statusUpdate', 'status_update', 'task', 'message']) {
    if (isObject(x[key])) return x[key];
  }
  return undefined;
}

function metadataFrom(metadata: unknown): CommandReplyMetadata | undefined {
  if (!isObject(metadata)) return undefined;
  const command = metadata['command'];
  if (typeof command !== 'string' || command === '') return undefined;
  const taskRef = metadata['task_ref'];
  return typeof taskRef === 'string' && taskRef !== ''
    ? { command, task_ref: taskRef }
    : { command };
}

function messageMetadata(message: unknown): CommandReplyMetadata | undefined {
  if (!isObject(message) || !isAgentRole(message['role'])) return undefined;
  return metadataFrom(message['metadata']);
}

function statusMessage(x: Obj): unknown {
  const status = x['status'];
  return isObject(status) ? status['message'] : undefined;
}

/**
 * The reply metadata `{command, task_ref?}` of a command reply, or undefined.
 * A status update is read from its own metadata (falling back to its message's);
 * a Task only from `status.message` (Task.metadata never marks a reply).
 */
export function replyMetadataOf(x: unknown): CommandReplyMetadata | undefined {
  return metadataOf(x, 0);
}

function metadataOf(x: unknown, depth: number): CommandReplyMetadata | undefined {
  if (!isObject(x) || depth > 2) return undefined;
  if (isMessage(x)) return messageMetadata(x);
  if (isTask(x)) return messageMetadata(statusMessage(x));
  if ('status' in x) {
    const message = statusMessage(x);
    if (message !== undefined && (!isObject(message) || !isAgentRole(message['role']))) {
      return undefined;
    }
    return metadataFrom(x['metadata']) ?? messageMetadata(message);
  }
  const inner = unwrap(x);
  return inner === undefined ? undefined : metadataOf(inner, depth + 1);
}

declare const commandReplyBrand: unique symbol;

/**
 * A mark that exists only for the type checker: it makes {@link CommandReply}
 * narrower than what it marks, so that the guard's false branch keeps its type.
 */
export interface CommandReplyMark {
  readonly [commandReplyBrand]: true;
}

/**
 * What {@link isCommandReply} proves about a value: a `Task` that is a command
 * reply has its reply as `status.message`; anything else keeps its own type.
 */
export type CommandReply<T> = (T extends Task
  ? T & { status: TaskStatus & { message: Message } }
  : T) &
  CommandReplyMark;

/** Whether `x` is (or carries) a command reply. A type guard: a `Task` narrows to one with `status.message`. */
export function isCommandReply<T>(x: T): x is CommandReply<T> {
  return replyMetadataOf(x) !== undefined;
}

/** The name of the command `x` replies to, without the slash. */
export function commandOf(x: unknown): string | undefined {
  return replyMetadataOf(x)?.command;
}

/** The id of the sub-task the command created, when it did (SEMANTICS §7). */
export function taskRefOf(x: unknown): string | undefined {
  return replyMetadataOf(x)?.task_ref;
}

/** The reply message itself, from a reply event, stream response, task or message. */
export function replyMessageOf(x: unknown): Record<string, unknown> | undefined {
  return messageOf(x, 0);
}

function messageOf(x: unknown, depth: number): Obj | undefined {
  if (!isObject(x) || depth > 2) return undefined;
  if (isMessage(x)) return isAgentRole(x['role']) ? x : undefined;
  if ('status' in x || isTask(x)) {
    const message = statusMessage(x);
    return isObject(message) && isAgentRole(message['role']) ? message : undefined;
  }
  const inner = unwrap(x);
  return inner === undefined ? undefined : messageOf(inner, depth + 1);
}

function partsOf(message: unknown): unknown[] {
  if (!isObject(message)) return [];
  const parts = message['parts'];
  return Array.isArray(parts) ? (parts as unknown[]) : [];
}

/** A part's content as `[kind, value]`, for either shape. */
function contentOf(part: unknown): [string, unknown] | undefined {
  if (!isObject(part)) return undefined;
  const content = part['content'];
  if (isObject(content) && typeof content['$case'] === 'string') {
    return [content['$case'], content['value']];
  }
  for (const kind of ['text', 'data', 'url', 'raw']) {
    if (kind in part && part[kind] !== undefined) return [kind, part[kind]];
  }
  return undefined;
}

/**
 * The message whose parts a reader reads: `x` itself when it is a message (of
 * any role), else the reply message it carries (a task's or status update's
 * `status.message`, a stream response's payload).
 */
function partsHolder(x: unknown): unknown {
  return isObject(x) && Array.isArray(x['parts']) ? x : messageOf(x, 0);
}

/**
 * The value of the first data part, or undefined when there is none. Reads a
 * message, or the reply a stream event, status update, stream response or task carries.
 */
export function replyData(x: unknown): unknown {
  for (const part of partsOf(partsHolder(x))) {
    const content = contentOf(part);
    if (content?.[0] === 'data') return content[1];
  }
  return undefined;
}

/**
 * The text parts, joined with newlines (`""` when there are none). Reads a
 * message, or the reply a stream event, status update, stream response or task carries.
 */
export function replyText(x: unknown): string {
  const texts: string[] = [];
  for (const part of partsOf(partsHolder(x))) {
    const content = contentOf(part);
    if (content?.[0] === 'text' && typeof content[1] === 'string') texts.push(content[1]);
  }
  return texts.join('\n');
}

/** Whether `value` is a reply error: `{code, message}`, a kebab-case code and a string. */
export function isReplyError(value: unknown): value is CommandReplyError {
  return (
    isObject(value) &&
    typeof value['code'] === 'string' &&
    REPLY_ERROR_CODE_PATTERN.test(value['code']) &&
    typeof value['message'] === 'string'
  );
}

/**
 * The refusal a command reply carries, from its data part `{"error": {code, message}}`,
 * or undefined for a reply that did not refuse (and for anything that is not a command reply).
 */
export function replyErrorOf(x: unknown): CommandReplyError | undefined {
  if (replyMetadataOf(x) === undefined) return undefined;
  const data = replyData(x);
  if (!isObject(data)) return undefined;
  const error = data['error'];
  return isReplyError(error) ? { code: error.code, message: error.message } : undefined;
}
