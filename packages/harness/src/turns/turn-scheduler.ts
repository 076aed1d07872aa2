import type { TaskStatus } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskHead } from 'a2a-commands/server';
import type { TurnRowWrite, HarnessTaskStore } from '../store/index.js';
import type { TaskEvents } from './task-events.js';
import type { Turn } from './turn.js';
import type { TurnEndings } from './turn-endings.js';
import { limitWords } from '../config/limit-words.js';

/** A turn as the request that asked for it knows it. */
export interface TurnRequest {
  taskId: string;
  /** The id of the user message it answers. */
  turnId: string;
}

/** What a scheduler is given to run turns with. */
export interface SchedulerDeps {
  store: HarnessTaskStore;
  events: TaskEvents;
  /** Where every turn's end is written. */
  endings: TurnEndings;
  /** One model turn; never throws. */
  run(turn: Turn, context: ServerCallContext): Promise<void>;
}

/**
 * What storing a turn's message does with it, in the same write: the check of
 * limits.queuedPerTask, and the record of the turn where the scheduler keeps it.
 * Checked anywhere else, messages sent at one moment would all pass.
 */
export interface Admission {
  /** Run inside the write, after the stored head is read: an error refuses the message. */
  refuse(): Error | undefined;
  /** The turn's row, written with the message; it refuses the message when the queue is full. */
  turnRow?: TurnRowWrite;
  /** The write did not store the message: the turn is forgotten. */
  abandon(): void;
}

/** limits.queuedPerTask is reached: -32004, with a message that says what to do. */
export function queueFullError(taskId: string, limit: number): UnsupportedOperationError {
  return new UnsupportedOperationError(limitWords.queuedPerTask(taskId, limit));
}

/** Writes the canceled state, with `turnRow` (the task's rows removed) in the same write. */
export type CancelWrite = (turnRow?: TurnRowWrite) => Promise<TaskHead | undefined>;

/**
 * Where turns wait and run. SEMANTICS §4: per task one turn at a time, in
 * arrival order, none lost. `LocalTurns` keeps them in this process;
 * `ClusterTurns` keeps them in PostgreSQL for processes sharing it.
 */
export interface TurnScheduler {
  /** Whether a turn runs on the task now. */
  busy(taskId: string): Promise<boolean>;
  /** How many turns wait behind the running one. */
  queued(taskId: string): Promise<number>;
  /** How many turns wait behind a running one, over all tasks (for the queue-depth metric). */
  waiting(): Promise<number>;
  /**
   * What the write that stores the turn's message must do (`Admission`): the
   * task may then have one turn running and at most `limit` waiting.
   */
  admit(turn: TurnRequest, context: ServerCallContext, limit: number): Admission;
  /**
   * Called once the message is stored: the turn runs when its time comes.
   * Resolves, with the status the turn stored as it ended, when its last event
   * has been published here; a turn run elsewhere ends through its final event.
   */
  start(turn: TurnRequest, context: ServerCallContext): Promise<TaskStatus | undefined>;
  /**
   * CancelTask: the waiting turns are dropped, the running one is aborted, the
   * canceled state is written with `end`, and every one of them gets its final event.
   */
  cancel(task: { id: string; contextId: string }, end: CancelWrite): Promise<void>;
  /** `/stop`: the running turn, wherever it runs, ends with its answer so far. False when none runs. */
  stop(taskId: string): Promise<boolean>;
  /** Shutdown: every turn running here ends in input-required with `note`. */
  endTurnsInFlight(note: string): Promise<void>;
}
