import type { Owner } from './owner.js';

export const TURNS_TABLE = 'a2a_harness_turns';
/** Made by the harness's migrations (0005), like the tables every database has. */
export const LEASES_TABLE = 'a2a_harness_instances';

/**
 * A waiting turn is claimed by the instance that queued it at once. One that
 * has waited this long with none of its task's turns running was left by a
 * runner that died between two turns, and any instance's sweep claims it.
 * Sooner, the sweep would race the instance that queued it, and the turn would
 * run away from its caller's stream, on another instance's faults.
 */
export const UNCLAIMED_AFTER_MS = 2_000;

/**
 * A turn waiting or running, one row each, in arrival order (`id`). `instance`
 * is empty while the turn waits and names the process that runs it once
 * claimed; the row is deleted when the turn ends.
 */
export interface TurnRow {
  id: string;
  task_id: string;
  turn_id: string;
  /** The caller it runs for, as the SDK's task table scopes tasks. */
  owner: string;
  tenant: string;
  instance: string | null;
  created_at: Date;
}

/** A claimed turn: which, and who runs it. */
export interface ClaimedTurn {
  taskId: string;
  turnId: string;
  instance: string;
}

/**
 * The turn rows of instances sharing one PostgreSQL (`cluster/`): the reads,
 * and the changes made on their own, each one statement or one call. A change
 * that belongs to a task write (the message a turn answers, a cancel, a
 * turn's ending) is a `TurnRowWrite` in that write (`task-change.ts`).
 */
export interface TurnRows {
  /** The task's claimed turn, if one runs. */
  running(taskId: string): Promise<ClaimedTurn | undefined>;
  /** How many turns wait: the task's, or every task's. */
  waiting(taskId?: string): Promise<number>;
  /** The task's oldest waiting turn, now `instance`'s; none while one of its turns runs. */
  claim(taskId: string, instance: string): Promise<TurnRow | undefined>;
  /** Whether row `id` is still claimed by `instance`. */
  claimedBy(id: string, instance: string): Promise<boolean>;
  /** A turn's row deleted by the instance that ran it, once its ending is stored. */
  remove(id: string): Promise<void>;
  /**
   * `instance`'s claimed turn deleted under the task's lock, its ending
   * stored already: false when it was already gone.
   */
  removeClaimed(taskId: string, turnId: string, instance: string): Promise<boolean>;
  /** Whom the turn runs for; undefined when its row is gone. */
  ownerOf(taskId: string, turnId: string): Promise<Owner | undefined>;
  /**
   * Tasks whose turns have waited `UNCLAIMED_AFTER_MS` or longer with none
   * running: their last runner died between two turns.
   */
  unclaimedTasks(): Promise<string[]>;
  /** The turns `instance` claimed. */
  turnsOf(instance: string): Promise<{ taskId: string; turnId: string }[]>;
  /** Instances other than `me` that claimed turns and hold no lease that still runs. */
  instancesPastLease(me: string): Promise<string[]>;
  /** Expired leases that no turn names, deleted; a running lease never is. */
  removeIdleExpiredLeases(): Promise<string[]>;
}
