import type { TaskStatus } from '@a2a-js/sdk';
import { TaskState } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { noteMessage } from '../notes.js';
import { status, statusEvent } from './turn-events.js';
import { newTurn, TurnQueue, type Turn } from './turn-queue.js';
import type { CancelWrite, SchedulerDeps, TurnRequest, TurnScheduler } from './turn-scheduler.js';

/** Turns queued and run in this process: one harness per database (SQLite). */
export class LocalTurns implements TurnScheduler {
  private readonly queue: TurnQueue;
  private readonly contexts = new WeakMap<Turn, ServerCallContext>();

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

  recordWrite(): undefined {
    return undefined;
  }

  start(request: TurnRequest, context: ServerCallContext): Promise<TaskStatus | undefined> {
    const turn = newTurn(request.taskId, request.turnId);
    this.contexts.set(turn, context);
    this.queue.enqueue(turn);
    return turn.done.then(() => turn.ended);
  }

  async cancel(task: { id: string; contextId: string }, end: CancelWrite): Promise<void> {
    const { events } = this.deps;
    const { running, waiting } = this.queue.drain(task.id);
    // Stored before the aborts: whoever a turn's end wakes then reads the task canceled.
    const ended = await end();
    running?.abort.abort(new Error('canceled'));
    for (const turn of waiting) turn.abort.abort(new Error('canceled'));
    const finalEvent = statusEvent(task, ended!.status!);
    events.publish(task.id, { event: finalEvent, turnId: running?.turnId ?? '', final: true });
    for (const turn of waiting) {
      events.publish(task.id, { event: finalEvent, turnId: turn.turnId, final: true });
      turn.finish();
    }
  }

  async endTurnsInFlight(note: string): Promise<void> {
    const { store, events } = this.deps;
    await Promise.all(
      this.queue.runningTurns().map(async (turn) => {
        turn.abort.abort(new Error('shutdown'));
        const { waiting } = this.queue.drain(turn.taskId);
        const context = this.contexts.get(turn);
        const head = context && (await store.loadHead(turn.taskId, context));
        const message = head && noteMessage(turn.taskId, head.contextId, 'interrupted', note);
        const ended =
          head &&
          message &&
          (await store.update(turn.taskId, context, {
            append: [message],
            status: () => status(TaskState.TASK_STATE_INPUT_REQUIRED, message),
          }));
        // One note and one write per task; every stream waiting on it, running or queued, ends.
        for (const each of [turn, ...waiting]) {
          if (ended) {
            const event = statusEvent(
              { id: turn.taskId, contextId: head.contextId },
              ended.status!,
            );
            events.publish(turn.taskId, { event, turnId: each.turnId, final: true });
          }
          each.finish();
        }
      }),
    );
  }
}
