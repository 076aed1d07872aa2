import type { AgentExecutor } from '@a2a-js/sdk/server';

/** Refused when a task already has as many queued messages as allowed. */
export class TurnQueueFullError extends Error {
  override name = 'TurnQueueFullError';
}

interface TaskTurns {
  /** Resolves when every turn admitted so far has ended. */
  tail: Promise<void>;
  /** Messages waiting for an earlier turn. */
  waiting: number;
  /** Handed from the admitted message to the executor run it starts. */
  handoff?: () => void;
}

/**
 * One model turn per task at a time (SEMANTICS §4). The SDK runs a second
 * message concurrently on the first one's event bus, which breaks the first
 * stream and can leave the task stuck in working; so ordinary messages wait
 * here, in arrival order, until the previous turn's executor has returned and
 * the SDK has settled its bus.
 */
export class TurnGate {
  private readonly tasks = new Map<string, TaskTurns>();

  constructor(private readonly maxQueuedPerTask = Infinity) {}

  /** Messages waiting behind a running turn on this task. */
  queued(taskId: string): number {
    return this.tasks.get(taskId)?.waiting ?? 0;
  }

  /** Whether a turn is running or queued on this task. */
  busy(taskId: string): boolean {
    return this.tasks.has(taskId);
  }

  /**
   * Waits for the task's earlier turns, then lets `start` dispatch the message
   * to the SDK. The turn ends when the executor it starts returns; if `start`
   * fails before an executor runs, it ends at once.
   */
  async admit<T>(taskId: string, start: () => Promise<T>): Promise<T> {
    const release = await this.enter(taskId);
    try {
      return await start();
    } catch (error) {
      this.abandon(taskId, release);
      throw error;
    }
  }

  /** Like {@link admit}, for a stream: the first pull is where the SDK can refuse. */
  async *admitStream<T>(
    taskId: string,
    start: () => AsyncGenerator<T, void, undefined>,
  ): AsyncGenerator<T, void, undefined> {
    const release = await this.enter(taskId);
    const stream = start();
    let first: IteratorResult<T, void>;
    try {
      first = await stream.next();
    } catch (error) {
      this.abandon(taskId, release);
      throw error;
    }
    if (first.done) return;
    yield first.value;
    yield* stream;
  }

  /** Wraps the agent's executor so the gate knows when each turn ends. */
  track(executor: AgentExecutor): AgentExecutor {
    return {
      execute: async (requestContext, eventBus) => {
        const release = this.takeHandoff(requestContext.taskId);
        try {
          await executor.execute(requestContext, eventBus);
        } finally {
          // The SDK settles the bus right after execute returns; release after that.
          setImmediate(release);
        }
      },
      cancelTask: (taskId, eventBus) => executor.cancelTask(taskId, eventBus),
    };
  }

  private async enter(taskId: string): Promise<() => void> {
    const turns = this.tasks.get(taskId);
    if (turns && turns.waiting >= this.maxQueuedPerTask) {
      throw new TurnQueueFullError(
        `task ${taskId} already has ${turns.waiting} queued messages; wait for the turn to finish`,
      );
    }
    const release = this.chain(taskId);
    const entry = this.tasks.get(taskId)!;
    entry.waiting++;
    try {
      await release.previous;
    } finally {
      entry.waiting--;
    }
    entry.handoff = release.done;
    return release.done;
  }

  /** The SDK refused the message before any executor ran: the turn ends now. */
  private abandon(taskId: string, release: () => void): void {
    const entry = this.tasks.get(taskId);
    if (entry?.handoff === release) entry.handoff = undefined;
    release();
  }

  private takeHandoff(taskId: string): () => void {
    const entry = this.tasks.get(taskId);
    if (entry?.handoff) {
      const release = entry.handoff;
      entry.handoff = undefined;
      return release;
    }
    // A turn that did not come through the gate: a new task, whose id the SDK chose.
    return this.chain(taskId).done;
  }

  private chain(taskId: string): { previous: Promise<void>; done: () => void } {
    let entry = this.tasks.get(taskId);
    if (!entry) this.tasks.set(taskId, (entry = { tail: Promise.resolve(), waiting: 0 }));
    const previous = entry.tail;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => mine);
    entry.tail = tail;
    const owner = entry;
    void tail.then(() => {
      if (owner.tail === tail && owner.waiting === 0 && !owner.handoff) this.tasks.delete(taskId);
    });
    return { previous, done };
  }
}
