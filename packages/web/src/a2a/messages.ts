import type { Task } from '@a2a-js/sdk';
import { HARNESS_METADATA_KEY } from 'a2a-chat-core';
import { SUBTASK_METADATA_KEY } from 'a2a-commands/client';

/*
 * What the chat reads from tasks besides their transcript (the client core,
 * a2a-chat-core, reads messages). Everything tolerates odd input.
 */

type Metadata = Record<string, unknown> | undefined;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The task's title: the harness's `/title`, or a plain `metadata.title`. */
export function titleOf(task: { metadata?: Task['metadata'] } | undefined): string | undefined {
  const metadata = task?.metadata as Metadata;
  const settings = metadata?.[HARNESS_METADATA_KEY];
  const title = (isRecord(settings) && settings['title']) || metadata?.['title'];
  return typeof title === 'string' && title.trim() !== '' ? title : undefined;
}

/** The id of the task that created this one as a sub-task (SEMANTICS §7). */
export function parentOf(task: { metadata?: Task['metadata'] } | undefined): string | undefined {
  const links = (task?.metadata as Metadata)?.[SUBTASK_METADATA_KEY];
  const parent = isRecord(links) ? links['parent'] : undefined;
  return typeof parent === 'string' && parent !== '' ? parent : undefined;
}

/** A short title from the first words of a prompt, on one line. */
export function titleFromText(text: string, length = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  return chars.length > length ? `${chars.slice(0, length - 1).join('')}…` : line;
}

/** The model chosen for the task with the harness's `/model`, if one was. */
export function chosenModelOf(
  task: { metadata?: Task['metadata'] } | undefined,
): string | undefined {
  const settings = (task?.metadata as Metadata)?.[HARNESS_METADATA_KEY];
  const model = isRecord(settings) ? settings['model'] : undefined;
  return typeof model === 'string' && model !== '' ? model : undefined;
}
