import type { Turn } from './turn.js';

/**
 * SEMANTICS §4: never two turns on one task at once. Turns wait in arrival
 * order; each runs when the one before it has finished.
 */
export class TurnQueue {
  private readonly waiting = new Map<string, Turn[]>();
  private readonly running = new Map<string, Turn>();

  constructor(private readonly runTurn: (turn: Turn) => Promise<void>) {}

  /** Turns waiting behind the running one. */
  queued(taskId: string): number {
    return this.waiting.get(taskId)?.length ?? 0;
  }

  /** Turns waiting, over all tasks. */
  waitingTotal(): number {
    let total = 0;
    for (const turns of this.waiting.values()) total += turns.length;
    return total;
  }

  busy(taskId: string): boolean {
    return this.running.has(taskId);
  }

  runningTurn(taskId: string): Turn | undefined {
    return this.running.get(taskId);
  }

  /** Every turn running now, on any task. */
  runningTurns(): Turn[] {
    return [...this.running.values()];
  }

  enqueue(turn: Turn): void {
    if (this.running.has(turn.taskId)) {
      const waiting = this.waiting.get(turn.taskId) ?? [];
      waiting.push(turn);
      this.waiting.set(turn.taskId, waiting);
      return;
    }
    this.start(turn);
  }

  /** Removes and returns the waiting turns of a task, and the running one (for cancel). */
  drain(taskId: string): { running?: Turn; waiting: Turn[] } {
    const waiting = this.waiting.get(taskId) ?? [];
    this.waiting.delete(taskId);
    return { running: this.running.get(taskId), waiting };
  }

  private start(turn: Turn): void {
    this.running.set(turn.taskId, turn);
    void this.runTurn(turn).finally(() => {
      turn.finish();
      this.running.delete(turn.taskId);
      const waiting = this.waiting.get(turn.taskId);
      const next = waiting?.shift();
      if (waiting && waiting.length === 0) this.waiting.delete(turn.taskId);
      if (next) this.start(next);
    });
  }
}
