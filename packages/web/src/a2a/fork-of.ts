import type { Task } from '@a2a-js/sdk';

/*
 * A fork is linked to its task as a sub-task (SEMANTICS §7), but it goes on
 * independently: the harness says which task it was copied from under its own
 * settings key, `{"a2a-harness": {"forkOf": "<id>"}}`.
 */

const HARNESS_KEY = 'a2a-harness';

/** The id of the task this one was forked from; undefined for any other task. */
export function forkOriginOf(
  task: { metadata?: Task['metadata'] } | undefined,
): string | undefined {
  const settings = (task?.metadata as Record<string, unknown> | undefined)?.[HARNESS_KEY];
  if (typeof settings !== 'object' || settings === null) return undefined;
  const origin = (settings as Record<string, unknown>)['forkOf'];
  return typeof origin === 'string' && origin !== '' ? origin : undefined;
}
