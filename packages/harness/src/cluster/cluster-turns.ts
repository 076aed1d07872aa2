import { TaskState, type TaskStatus } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { Logger } from 'pino';
import {
  ownerContext,
  PostgresTurnRows,
  retryWhileUnreachable,
  type AnyKysely,
  type RemovedTurn,
  type TurnRow,
  type TurnRows,
  type TurnRowWrite,
} from '../store/index.js';
import { noteMessage } from '../notes.js';
import { abortReasonOf, abortTurn, newTurn, type Turn } from '../turns/turn.js';
import { status, statusEvent } from '../turns/turn-events.js';
import { endingFromOutside } from '../turns/turn-endings.js';
import {
  queueFullError,
  type Admission,
  type CancelWrite,
  type SchedulerDeps,
  type TurnRequest,
  type TurnScheduler,
} from '../turns/turn-scheduler.js';
import type { PgEventBus } from './event-bus.js';
import {
  endLeaseOfGoneRun,
  previousRuns,
  takeOverLease,
  type InstanceLease,
} from './instance-lease.js';

/** Stored event bodies older than this are deleted; listeners read them within milliseconds. */
const PRUNE_EVERY_MS = 60_000;
/**
 * A command stores a sub-task, then its first prompt, a moment later. Older
 * than this without a message, the process that made it has died.
 */
const STRANDED_AFTER_MS = 5_000;

/**
 * How often the sweep looks for stranded sub-tasks, and for expired leases
 * that no turn names: neither blocks anyone, so a few seconds late is fine.
 */
const STRANDED_EVERY_MS = 5_000;

export interface ClusterTurnsOptions extends SchedulerDeps {
  db: AnyKysely;
  bus: PgEventBus;
  logger: Logger;
  /** The note a turn gets when the instance running it died. */
  interruptedNote: string;
  /** This instance's lease: another instance takes its turns over once it has expired. */
  lease: InstanceLease;
}

/**
 * Turns queued in PostgreSQL, for instances sharing it (SEMANTICS §4 across
 * processes). A message's turn is a row written with the message. Any
 * instance may claim a task's oldest waiting turn, but only while none of
 * that task's turns runs: claims are made under the task's advisory lock, so
 * one turn per task runs at a time, wherever it runs. The instance that ran a
 * turn claims the next one of its task. A turn's writes are fenced by its row:
 * once the row is gone (canceled, or ended by another instance that found this
 * one dead), the turn can no longer write.
 */
export class ClusterTurns implements TurnScheduler {
  private readonly db: AnyKysely;
  /** Every read and change of the turn rows: the repository's. */
  private readonly rows: TurnRows;
  private readonly me: string;
  /** Turns running in this process, by task. */
  private readonly running = new Map<string, Turn>();
  /** Tasks whose claim loop runs here, and whether to look again before it stops. */
  private readonly loops = new Map<string, { again: boolean }>();
  /**
   * Stops and cancels for turns this instance claimed but has not started yet, by turn id:
   * the claim is visible to others as it commits, a moment before its turn runs here.
   */
  private readonly abortOnStart = new Map<
    string,
    { taskId: string; why: 'stopped' | 'canceled' }
  >();
  private closing = false;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;
  private lastPrune = 0;
  private lastStrandedLook = 0;
  /** Between a renewal that found the lease taken and the lease taken again: no claims. */
  private fenced = false;

  constructor(private readonly options: ClusterTurnsOptions) {
    this.db = options.db;
    this.rows = new PostgresTurnRows(options.db);
    this.me = options.bus.instanceId;
    options.bus.on('cancel', ({ taskId, turnId }) => this.abortHere(taskId, turnId, 'canceled'));
    options.bus.on('stop', ({ taskId, turnId }) => this.abortHere(taskId, turnId, 'stopped'));
    options.bus.on('queued', ({ taskId }) => this.claimLoop(taskId));
  }

  async busy(taskId: string): Promise<boolean> {
    return (await this.rows.running(taskId)) !== undefined;
  }

  queued(taskId: string): Promise<number> {
    return this.rows.waiting(taskId);
  }

  /** Every instance's waiting turns: the queue is shared. */
  waiting(): Promise<number> {
    return this.rows.waiting();
  }

  /**
   * The turn's row, written in the call that stores its message, which holds
   * the task's advisory lock: the count of the task's rows it checks first is
   * then exact across instances.
   */
  admit(turn: TurnRequest, _context: ServerCallContext, limit: number): Admission {
    return {
      refuse: () => undefined,
      turnRow: {
        kind: 'queue',
        turnId: turn.turnId,
        limit,
        whenFull: queueFullError(turn.taskId, limit),
      },
      abandon: () => undefined,
    };
  }

  start(turn: TurnRequest): Promise<TaskStatus | undefined> {
    this.claimLoop(turn.taskId);
    // Wherever the turn runs, its final event reaches the caller through the bus.
    return new Promise(() => undefined);
  }

  /** The running turn is stopped by the instance that runs it: here, or over the bus. */
  async stop(taskId: string): Promise<boolean> {
    const running = await this.rows.running(taskId);
    if (!running) return false;
    if (running.instance === this.me) this.abortHere(taskId, running.turnId, 'stopped');
    else this.options.bus.send({ kind: 'stop', taskId, turnId: running.turnId });
    return true;
  }

  async cancel(task: { id: string; contextId: string }, end: CancelWrite): Promise<void> {
    const removeAll = { kind: 'removeAll', removed: [] as RemovedTurn[] } as const;
    const ended = await end(removeAll);
    const dropped = removeAll.removed;
    const running = dropped.find((row) => row.instance !== null);
    if (running?.instance === this.me) {
      this.abortHere(task.id, running.turnId, 'canceled');
    } else if (running) {
      this.options.bus.send({ kind: 'cancel', taskId: task.id, turnId: running.turnId });
    }
    if (!ended?.status) return;
    // '' ends SubscribeToTask streams even when no turn ran.
    const turnIds = [
      running?.turnId ?? '',
      ...dropped.filter((row) => row !== running).map((row) => row.turnId),
    ];
    this.options.endings.announce(task, ended.status, turnIds);
  }

  /** Sweeps every `intervalMs`; `onEnded` hears of the tasks whose turns a sweep ended. */
  startSweeping(intervalMs: number, onEnded: (taskIds: string[]) => void): void {
    this.sweeper = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = true;
      this.sweep()
        .then((ended) => ended.length > 0 && onEnded(ended))
        .catch((error: unknown) =>
          this.options.logger.error({ err: error }, 'cluster: sweep failed'),
        )
        .finally(() => (this.sweeping = false));
    }, intervalMs);
    this.sweeper.unref();
  }

  /** Shutdown: turns running here end with `note`; their waiting turns are left for the others. */
  async endTurnsInFlight(note: string): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    await Promise.all(
      [...this.running.values()].map(async (turn) => {
        abortTurn(turn, 'shutdown');
        const answerSoFar = this.options.events.answerTextSoFar(turn.taskId);
        await this.endInterrupted(turn.taskId, turn.turnId, this.me, note, answerSoFar);
        this.options.bus.send({ kind: 'queued', taskId: turn.taskId });
      }),
    );
  }

  /**
   * Ends the turns of instances whose lease expired, as a restart does for one
   * instance, then runs what waits behind them; claims waiting turns nobody
   * runs; now and then, ends sub-tasks stranded before their first prompt.
   * Returns the tasks whose turns it ended.
   */
  async sweep(): Promise<string[]> {
    if (this.closing || this.fenced) return [];
    const ended: string[] = [];
    for (const instance of await this.rows.instancesPastLease(this.me)) {
      ended.push(...(await this.takeOver(instance)));
    }
    for (const taskId of await this.rows.unclaimedTasks()) this.claimLoop(taskId);
    if (Date.now() - this.lastStrandedLook >= STRANDED_EVERY_MS) {
      this.lastStrandedLook = Date.now();
      ended.push(...(await this.endStrandedSubtasks()));
      // Dead instances that held no turns: no takeover would ever remove their rows.
      await this.rows.removeIdleExpiredLeases();
    }
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await this.options.bus.prune(PRUNE_EVERY_MS);
    }
    return ended;
  }

  /**
   * This instance's lease was taken over: its running turns stop, and each is
   * ended as the instance that took it over ends it, by whichever of the two
   * writes first (the turn's row fences the other out). Its own clients'
   * streams and blocking calls get that final event. Then it takes a lease
   * again and claims turns as before.
   */
  async fencedOut(): Promise<void> {
    this.fenced = true;
    const turns = [...this.running.values()];
    for (const turn of turns) abortTurn(turn, 'fenced');
    await Promise.all(turns.map((turn) => turn.done));
    await retryWhileUnreachable(() => this.options.lease.take(), {
      giveUp: () => this.closing,
    }).catch((error: unknown) =>
      this.options.logger.error({ err: error }, 'cluster: could not take a lease again'),
    );
    this.fenced = false;
    this.options.logger.info({ instance: this.me }, 'cluster: holds a lease again');
  }

  /** Sub-tasks whose first prompt died with the instance that made them. */
  private async endStrandedSubtasks(): Promise<string[]> {
    const { store, endings, interruptedNote } = this.options;
    const ended: string[] = [];
    for (const row of await store.strandedSubtasks(STRANDED_AFTER_MS)) {
      const head = await endings
        .end(
          {
            taskId: row.id,
            contextId: row.contextId,
            context: ownerContext(row.owner, row.tenant),
            turnIds: [''],
            onlyWhile: [TaskState.TASK_STATE_SUBMITTED],
          },
          { kind: 'interrupted', note: interruptedNote },
        )
        .catch(() => undefined);
      if (head) ended.push(row.id);
    }
    return ended;
  }

  /**
   * At start-up: the turns of this instance's earlier runs under its name,
   * which are gone, end at once rather than when their leases expire. Their
   * lease goes last: while it stands, no other instance's sweep takes those
   * turns, so the restart ends them all and says so.
   */
  async endPreviousRuns(): Promise<string[]> {
    const { name } = this.options.lease;
    if (name === null) return [];
    const ended: string[] = [];
    for (const instance of await previousRuns(this.db, name, this.me)) {
      ended.push(...(await this.endTurnsOf(instance)));
      await endLeaseOfGoneRun(this.db, instance);
    }
    return ended;
  }

  /** Ends the turns of `instance`, whose lease expired, unless it renewed it meanwhile. */
  private async takeOver(instance: string): Promise<string[]> {
    if (!(await takeOverLease(this.db, instance))) return [];
    return this.endTurnsOf(instance);
  }

  /** Ends the turns of `instance`, whose lease this instance ended, and runs what waits behind them. */
  private async endTurnsOf(instance: string): Promise<string[]> {
    const ended: string[] = [];
    for (const { taskId, turnId } of await this.rows.turnsOf(instance)) {
      const note = this.options.interruptedNote;
      if (await this.endInterrupted(taskId, turnId, instance, note)) ended.push(taskId);
      this.claimLoop(taskId);
    }
    return ended;
  }

  /**
   * Ends a turn `instance` ran and can no longer finish: input-required with
   * `note`, unless it had already written its answer, and its row goes.
   * Every stream waiting for it gets the final event. True when a note was written.
   */
  private async endInterrupted(
    taskId: string,
    turnId: string,
    instance: string,
    note: string,
    answerSoFar?: string,
  ): Promise<boolean> {
    const { store } = this.options;
    const owner = await this.rows.ownerOf(taskId, turnId);
    if (!owner) return false;
    const context = ownerContext(owner.owner, owner.tenant);
    const head = await store.loadHead(taskId, context);
    const removeRow: TurnRowWrite = { kind: 'removeClaimed', turnId, instance };
    if (!head || head.status?.state !== TaskState.TASK_STATE_WORKING) {
      // Its answer is stored (or the task is gone): only the row is left to remove.
      await this.rows.removeClaimed(taskId, turnId, instance);
      return false;
    }
    const ended = await this.options.endings.end(
      { taskId, contextId: head.contextId, context, turnIds: [turnId], fence: removeRow },
      { kind: 'interrupted', note, text: answerSoFar },
    );
    return ended !== undefined;
  }

  /** Aborts the turn if it runs here, or as it starts if this instance claimed it and it has not yet. */
  private abortHere(taskId: string, turnId: string, why: 'stopped' | 'canceled'): void {
    const turn = this.running.get(taskId);
    if (turn?.turnId === turnId) abortTurn(turn, why);
    else if (this.loops.has(taskId)) this.abortOnStart.set(turnId, { taskId, why });
  }

  /** Claims and runs the task's waiting turns here, one after another, while it gets them. */
  private claimLoop(taskId: string): void {
    const loop = this.loops.get(taskId);
    if (loop) {
      loop.again = true;
      return;
    }
    if (this.closing || this.fenced) return;
    const state = { again: false };
    this.loops.set(taskId, state);
    void (async () => {
      try {
        for (;;) {
          state.again = false;
          const row = this.closing || this.fenced ? undefined : await this.claim(taskId);
          if (row) await this.runClaimed(row);
          else if (!state.again) return;
        }
      } catch (error) {
        this.options.logger.error({ err: error, taskId }, 'cluster: claiming a turn failed');
      } finally {
        this.loops.delete(taskId);
        for (const [turnId, early] of this.abortOnStart) {
          if (early.taskId === taskId) this.abortOnStart.delete(turnId);
        }
      }
    })();
  }

  /** The task's oldest waiting turn, now this instance's; none while one of its turns runs. */
  private claim(taskId: string): Promise<TurnRow | undefined> {
    return this.rows.claim(taskId, this.me);
  }

  private async runClaimed(row: TurnRow): Promise<void> {
    const fence: TurnRowWrite = { kind: 'fence', rowId: row.id, instance: this.me };
    const turn = newTurn(row.task_id, row.turn_id, fence);
    // The caller's scope, as stored with the turn: the turn may not run where it was asked for.
    const context = ownerContext(row.owner, row.tenant);
    this.running.set(row.task_id, turn);
    const early = this.abortOnStart.get(row.turn_id);
    if (early) abortTurn(turn, early.why);
    this.options.logger.debug(
      { taskId: row.task_id, turnId: row.turn_id },
      'cluster: turn claimed',
    );
    try {
      await this.options.run(turn, context);
      if (abortReasonOf(turn) === 'fenced') await this.endFencedOut(turn, context);
      // Its ending was refused: another instance took it over before this one heard it was fenced out.
      else if (!turn.ended && !endingFromOutside(turn) && !(await this.stillMine(row)))
        await this.deliverStoredEnding(turn, context);
    } finally {
      this.running.delete(row.task_id);
      this.abortOnStart.delete(row.turn_id);
      turn.finish();
    }
    // An ending written from outside (cancel, shutdown, a takeover) removes the row in its own write.
    if (!endingFromOutside(turn)) {
      // A row left behind would name this instance for a turn it no longer runs.
      await retryWhileUnreachable(() => this.rows.remove(row.id), {
        giveUp: () => this.closing,
      });
    }
  }

  private async stillMine(row: TurnRow): Promise<boolean> {
    return retryWhileUnreachable(() => this.rows.claimedBy(row.id, this.me));
  }

  /** A turn stopped because this instance was fenced out: ended here, or by the instance that took it over. */
  private async endFencedOut(turn: Turn, context: ServerCallContext): Promise<void> {
    const wrote = await retryWhileUnreachable(
      () => this.endInterrupted(turn.taskId, turn.turnId, this.me, this.options.interruptedNote),
      { giveUp: () => this.closing },
    );
    if (!wrote) await this.deliverStoredEnding(turn, context);
  }

  /**
   * The ending another instance wrote for a turn that ran here, to this
   * process's streams: usually its final event came over the bus already,
   * and this one is dropped (`TaskEvents`); not when the LISTEN connection was down.
   */
  private async deliverStoredEnding(turn: Turn, context: ServerCallContext): Promise<void> {
    const head = await retryWhileUnreachable(() =>
      this.options.store.loadHead(turn.taskId, context),
    );
    if (!head) return;
    const task = { id: turn.taskId, contextId: head.contextId };
    // Working: the next turn has started since; the ending was the interrupted note.
    const final =
      head.status && head.status.state !== TaskState.TASK_STATE_WORKING
        ? head.status
        : status(
            TaskState.TASK_STATE_INPUT_REQUIRED,
            noteMessage(task.id, task.contextId, 'interrupted', this.options.interruptedNote),
          );
    this.options.events.deliver(turn.taskId, {
      event: statusEvent(task, final),
      turnId: turn.turnId,
      final: true,
    });
  }
}
