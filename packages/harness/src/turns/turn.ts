import type { TaskStatus } from '@a2a-js/sdk';
import type { TurnRowWrite } from '../store/index.js';

/**
 * Why a running turn was told to stop before its answer was done. `fenced`:
 * this instance's lease expired and the cluster took its turns over.
 */
export type AbortReason = 'stopped' | 'canceled' | 'shutdown' | 'fenced';

/** The abort reason a turn's signal carries; named so the model layer reads it as an abort. */
export class TurnAborted extends Error {
  constructor(readonly why: AbortReason) {
    super(`the turn was ${why}`);
    this.name = 'AbortError';
  }
}

/** One queued or running model turn. */
export interface Turn {
  taskId: string;
  /** The id of the user message this turn answers. */
  turnId: string;
  abort: AbortController;
  /** Settles when the turn's last event has been published. */
  done: Promise<void>;
  /** The status the turn stored as it ended: SendMessage answers with it. */
  ended?: TaskStatus;
  finish(): void;
  /**
   * Made with each of the turn's writes; vetoes them once the turn is no
   * longer this process's to run (canceled or taken over elsewhere).
   */
  fence?: TurnRowWrite;
}

export function newTurn(taskId: string, turnId: string, fence?: TurnRowWrite): Turn {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { taskId, turnId, abort: new AbortController(), done, finish, fence };
}

/** Tells a turn to stop; the first reason given is the one that counts. */
export function abortTurn(turn: Turn, why: AbortReason): void {
  if (!turn.abort.signal.aborted) turn.abort.abort(new TurnAborted(why));
}

export function abortReasonOf(turn: Turn): AbortReason | undefined {
  const reason: unknown = turn.abort.signal.reason;
  return reason instanceof TurnAborted ? reason.why : undefined;
}
