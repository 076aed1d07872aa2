import type { AnyKysely } from './advisory-locks.js';
import type { Owner } from './owner.js';

export const TURNS_TABLE = 'a2a_harness_turns';
/** Made by the harness's migrations (0005), like the tables every database has. */
export const LEASES_TABLE = 'a2a_harness_instances';

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
 * The turn rows of instances sharing one PostgreSQL (`cluster/`): every
 * change to them, each one statement or one transaction. A `db` argument is
 * the transaction of a task write the change belongs to (the message the
 * turn answers, a cancel, a turn's ending), which holds the task's lock.
 */
export interface TurnRows {
  /** The task's claimed turn, if one runs. */
  running(taskId: string): Promise<ClaimedTurn | undefined>;
  /** How many turns wait: the task's, or every task's. */
  waiting(taskId?: string): Promise<number>;
  /**
   * A message's turn queued in `db`, the write that stores the message; false,
   * and nothing written, when the task already has a running turn and
   * `limit` waiting. The count and the insert are one statement.
   */
  queue(
    db: AnyKysely,
    turn: { taskId: string; turnId: string; owner: Owner },
    limit: number,
  ): Promise<boolean>;
  /** The task's oldest waiting turn, now `instance`'s; none while one of its turns runs. */
  claim(taskId: string, instance: string): Promise<TurnRow | undefined>;
  /** Whether row `id` is still claimed by `instance` (in `db`, a turn write's fence). */
  claimedBy(id: string, instance: string, db?: AnyKysely): Promise<boolean>;
  /** A turn's row deleted by the instance that ran it, once its ending is stored. */
  remove(id: string): Promise<void>;
  /**
   * `instance`'s claimed turn deleted in `db`, the write of its ending by
   * another hand (a takeover, a shutdown), or alone under the task's lock
   * when its ending is stored already: false when it is already gone, which
   * fences that ending out.
   */
  removeClaimed(taskId: string, turnId: string, instance: string, db?: AnyKysely): Promise<boolean>;
  /** Every turn of the task deleted in `db` (a cancel): what they were. */
  removeAll(db: AnyKysely, taskId: string): Promise<{ turnId: string; instance: string | null }[]>;
  /** Whom the turn runs for; undefined when its row is gone. */
  ownerOf(taskId: string, turnId: string): Promise<Owner | undefined>;
  /** Tasks whose turns wait with none running: their last runner died between two turns. */
  unclaimedTasks(): Promise<string[]>;
  /** The turns `instance` claimed. */
  turnsOf(instance: string): Promise<{ taskId: string; turnId: string }[]>;
  /** Instances other than `me` that claimed turns and hold no lease that still runs. */
  instancesPastLease(me: string): Promise<string[]>;
  /** Expired leases that no turn names, deleted; a running lease never is. */
  removeIdleExpiredLeases(): Promise<string[]>;
}
