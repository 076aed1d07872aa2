import type { TaskStatus } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { abortTurn, newTurn, type Turn } from './turn.js';
import { TurnQueue } from './turn-queue.js';
import {
  queueFullError,
  type Admission,
  type CancelWrite,
  type SchedulerDeps,
  type TurnRequest,
  type TurnScheduler,
} from './turn-scheduler.js';

/** Turns queued and run in this process: one harness per database (SQLite). */
export class LocalTurns implements TurnScheduler {
  private readonly queue: TurnQueue;
  private readonly contexts = new WeakMap<Turn, ServerCallContext>();
  /** By task: turns whose message is being stored or is stored, not yet queued. */
  private readonly admitted = new Map<string, Set<string>>();

  constructor(private readonly deps: SchedulerDeps) {
    this.queue = new TurnQueue(async (turn) => {
      const context = this.contexts.get(turn);
      if (context) await deps.run(turn, context);
    });
  }

  async busy(taskId: string): Promise<boolean> {
    return this.queue.busy(taskId);
  }

  async queued(taskId: string): Promise<number> {
    return this.queue.queued(taskId);
  }

  async waiting(): Promise<number> {
    return this.queue.waitingTotal();
  }

  /**
   * The check runs in the store's write, which on this database is atomic for
   * the process (one synchronous change, or under the task's lock): the count
   * it reads includes every message admitted before it, queued or not yet.
   */
  admit(request: TurnRequest, _context: ServerCallContext, limit: number): Admission {
    const { taskId, turnId } = request;
    return {
      refuse: () => {
        const admitted = this.admitted.get(taskId) ?? new Set<string>();
        const others =
          (this.queue.busy(taskId) ? 1 : 0) +
          this.queue.queued(taskId) +
          admitted.size -
          (admitted.has(turnId) ? 1 : 0);
        // One turn runs, `limit` wait.
        if (others > limit) return queueFullError(taskId, limit);
        this.admitted.set(taskId, admitted.add(turnId));
        return undefined;
      },
      abandon: () => this.forget(request),
    };
  }

  start(request: TurnRequest, context: ServerCallContext): Promise<TaskStatus | undefined> {
    this.forget(request);
    const turn = newTurn(request.taskId, request.turnId);
    this.contexts.set(turn, context);
    this.queue.enqueue(turn);
    return turn.done.then(() => turn.ended);
  }

  private forget({ taskId, turnId }: TurnRequest): void {
    const admitted = this.admitted.get(taskId);
    if (admitted?.delete(turnId) && admitted.size === 0) this.admitted.delete(taskId);
  }

  async stop(taskId: string): Promise<boolean> {
    const running = this.queue.runningTurn(taskId);
    if (!running || running.abort.signal.aborted) return false;
    abortTurn(running, 'stopped');
    return true;
  }

  async cancel(task: { id: string; contextId: string }, end: CancelWrite): Promise<void> {
    const { running, waiting } = this.queue.drain(task.id);
    // Stored before the aborts: whoever a turn's end wakes then reads the task canceled.
    const ended = await end();
    if (running) abortTurn(running, 'canceled');
    for (const turn of waiting) abortTurn(turn, 'canceled');
    if (ended?.status) {
      // '' ends SubscribeToTask streams even when no turn ran.
      const turnIds = [running?.turnId ?? '', ...waiting.map((turn) => turn.turnId)];
      this.deps.endings.announce(task, ended.status, turnIds);
    }
    for (const turn of waiting) turn.finish();
  }

  async endTurnsInFlight(note: string): Promise<void> {
    const { store, endings, events } = this.deps;
    await Promise.all(
      this.queue.runningTurns().map(async (turn) => {
        abortTurn(turn, 'shutdown');
        const { waiting } = this.queue.drain(turn.taskId);
        const context = this.contexts.get(turn);
        const head = context && (await store.loadHead(turn.taskId, context));
        // One note and one write per task; every stream waiting on it, running or queued, ends.
        if (head) {
          await endings.end(
            {
              taskId: turn.taskId,
              contextId: head.contextId,
              context,
              turnIds: [turn.turnId, ...waiting.map((each) => each.turnId)],
            },
            // Kept as /stop keeps it: a client that comes back after the restart reads it.
            { kind: 'interrupted', note, text: events.answerTextSoFar(turn.taskId) },
          );
        }
        for (const each of [turn, ...waiting]) each.finish();
      }),
    );
  }
}
