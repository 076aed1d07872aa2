import type { Message } from '@a2a-js/sdk';

/*
 * Marks the reference agent (a2a-harness) puts on tasks and messages, beyond
 * the extension's v1. They live here, beside the reply readers, so that the
 * agent that writes them and every client that reads them share one spelling.
 */

/** The metadata key of the harness: per-task settings on a task, marks on its messages. */
export const HARNESS_METADATA_KEY = 'a2a-harness';

/**
 * SEMANTICS §4: the name of the artifact a model turn streams its answer into.
 * A running task's snapshot (GetTask, SubscribeToTask's first event) carries the
 * answer so far under it, so the snapshot plus the appends is the whole answer.
 */
export const ANSWER_ARTIFACT_NAME = 'answer';

/** Why the harness itself wrote a message: it is for the user, never for the model. */
export type NoteKind = 'interrupted' | 'model-error' | 'canceled' | 'stopped';

function harnessMarkOf(message: Pick<Message, 'metadata'> | undefined): Record<string, unknown> {
  const mark = (message?.metadata as Record<string, unknown> | undefined)?.[HARNESS_METADATA_KEY];
  return typeof mark === 'object' && mark !== null && !Array.isArray(mark)
    ? (mark as Record<string, unknown>)
    : {};
}

/** The kind of a note the harness wrote (`{"a2a-harness":{"note":kind}}`), or undefined. */
export function noteKindOf(message: Pick<Message, 'metadata'> | undefined): string | undefined {
  const note = harnessMarkOf(message)['note'];
  return typeof note === 'string' ? note : undefined;
}

/** A message the harness wrote for the user (a model error, an interrupted turn), not model output. */
export function isNote(message: Pick<Message, 'metadata'> | undefined): boolean {
  return noteKindOf(message) !== undefined;
}

/** SEMANTICS §4: an answer `/stop` ended, kept and marked `{"a2a-harness":{"stopped":true}}`. */
export function isStoppedAnswer(message: Pick<Message, 'metadata'> | undefined): boolean {
  return harnessMarkOf(message)['stopped'] === true;
}
