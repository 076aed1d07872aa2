import type { Message, Task } from '@a2a-js/sdk';

/*
 * What the chat reads from messages and tasks besides command replies (those
 * come from a2a-commands' client helpers). Everything tolerates odd input.
 */

type Metadata = Record<string, unknown> | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where the harness keeps its per-task settings (title, model) and message notes. */
const HARNESS_KEY = 'a2a-harness';
/** SEMANTICS §7: the library links sub-tasks and parents under this metadata key. */
const SUBTASK_KEY = 'a2a-commands';

/** Role agent, as the SDK's enum (2) or the wire name. */
export function isAgentMessage(message: Pick<Message, 'role'>): boolean {
  return (message.role as unknown) === 2 || (message.role as unknown) === 'ROLE_AGENT';
}

/** The text parts of a message, joined with newlines. */
export function textOf(message: Pick<Message, 'parts'> | undefined): string {
  if (!message) return '';
  const texts: string[] = [];
  for (const part of message.parts ?? []) {
    const content = part.content;
    if (content?.$case === 'text') texts.push(content.value);
  }
  return texts.join('\n');
}

/**
 * A user message that was a command: the library tags the stored command
 * message with `metadata.command` (SEMANTICS §3), as it does the reply.
 */
export function userCommandOf(message: Pick<Message, 'role' | 'metadata'>): string | undefined {
  if (isAgentMessage(message)) return undefined;
  const command = (message.metadata as Metadata)?.['command'];
  return typeof command === 'string' && command !== '' ? command : undefined;
}

/** A message the harness wrote for the user (a model error, an interrupted turn). */
export function isNote(message: Pick<Message, 'metadata'>): boolean {
  const tag = (message.metadata as Metadata)?.[HARNESS_KEY];
  return isRecord(tag) && typeof tag['note'] === 'string';
}

/** An answer `/stop` ended: the harness keeps it, marked `{"a2a-harness":{"stopped":true}}`. */
export function isStopped(message: Pick<Message, 'metadata'>): boolean {
  const tag = (message.metadata as Metadata)?.[HARNESS_KEY];
  return isRecord(tag) && tag['stopped'] === true;
}

/** The task's title: the harness's `/title`, or a plain `metadata.title`. */
export function titleOf(task: { metadata?: Task['metadata'] } | undefined): string | undefined {
  const metadata = task?.metadata as Metadata;
  const settings = metadata?.[HARNESS_KEY];
  const title = (isRecord(settings) && settings['title']) || metadata?.['title'];
  return typeof title === 'string' && title.trim() !== '' ? title : undefined;
}

/** The id of the task that created this one as a sub-task (SEMANTICS §7). */
export function parentOf(task: { metadata?: Task['metadata'] } | undefined): string | undefined {
  const links = (task?.metadata as Metadata)?.[SUBTASK_KEY];
  const parent = isRecord(links) ? links['parent'] : undefined;
  return typeof parent === 'string' && parent !== '' ? parent : undefined;
}

/** A short title from the first words of a prompt, on one line. */
export function titleFromText(text: string, length = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length > length ? `${chars.slice(0, length - 1).join('')}…` : line;
}
