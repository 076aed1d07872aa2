import type { StreamResponse } from '@a2a-js/sdk';

type Sink = (event: StreamResponse) => void;

/**
 * Carries published events to the other processes that serve the same tasks
 * (several instances behind a load balancer). Each of them hands what it
 * receives to its own `LiveStreams.deliver`; the publisher delivers its own
 * events locally, so a relay must not bring them back to it.
 */
export interface StreamRelay {
  /**
   * A promise, when returned, settles once the others have been told: a command's
   * answer waits for it, so that the caller's next command cannot reach the others
   * before this reply does. Anything else returned is ignored.
   */
  send(taskId: string, event: StreamResponse, told?: ToldOthers): unknown;
}

/** How a published event already reached the other processes, if it did. */
export interface ToldOthers {
  /** The store told them inside the write that stored the event (`StoredReply.announced`). */
  byStore: boolean;
}

/** The task an SDK stream event belongs to. */
export function taskIdOfEvent(event: StreamResponse): string | undefined {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      return payload.value.id;
    case 'statusUpdate':
    case 'artifactUpdate':
      return payload.value.taskId;
    case 'message':
      return payload.value.taskId || undefined;
    default:
      return undefined;
  }
}

/**
 * The command path's own fan-out to the streams open on a task. Replies are
 * merged into those streams here instead of being published on the SDK's
 * event bus, where they would end idle subscribers' streams and be merged
 * into `Task.metadata` by the turn that saves next.
 */
export class LiveStreams {
  private readonly sinks = new Map<string, Set<Sink>>();

  constructor(private readonly relay?: StreamRelay) {}

  /**
   * Delivers `event` to every stream open on the task in this process, and
   * through the relay to the other processes: how many local streams got it,
   * and, when the relay says when it is done, that. `told` says whether the
   * store already told the other processes.
   */
  publish(
    taskId: string,
    event: StreamResponse,
    told?: ToldOthers,
  ): { delivered: number; relayed?: Promise<void> } {
    const relayed = this.relay?.send(taskId, event, told);
    return {
      delivered: this.deliver(taskId, event),
      ...(relayed instanceof Promise && { relayed }),
    };
  }

  /** Delivers `event` to the streams open on the task in this process only: what a relay received. */
  deliver(taskId: string, event: StreamResponse): number {
    const sinks = this.sinks.get(taskId);
    if (!sinks) return 0;
    for (const sink of sinks) sink(event);
    return sinks.size;
  }

  /** How many streams are open on the task. */
  count(taskId: string): number {
    return this.sinks.get(taskId)?.size ?? 0;
  }

  private attach(taskId: string, sink: Sink): () => void {
    let sinks = this.sinks.get(taskId);
    if (!sinks) this.sinks.set(taskId, (sinks = new Set()));
    sinks.add(sink);
    return () => {
      sinks.delete(sink);
      if (sinks.size === 0 && this.sinks.get(taskId) === sinks) this.sinks.delete(taskId);
    };
  }

  /**
   * Passes `inner` through unchanged and slips in what is published for its
   * task. Nothing is slipped in before the stream's own first event, so the
   * SDK's "task or message first" order holds.
   */
  async *follow(
    inner: AsyncGenerator<StreamResponse, void, undefined>,
    knownTaskId?: string,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const published: StreamResponse[] = [];
    let wake: (() => void) | undefined;
    let detach: (() => void) | undefined;
    let finished = false;
    try {
      let next = inner.next();
      for (;;) {
        const queued = published.shift();
        if (queued) {
          yield queued;
          continue;
        }
        const woken = new Promise<'woken'>((resolve) => (wake = () => resolve('woken')));
        const step = await Promise.race([next, woken]);
        wake = undefined;
        if (step === 'woken') continue;
        if (step.done) {
          finished = true;
          return;
        }
        if (!detach) {
          const taskId = knownTaskId ?? taskIdOfEvent(step.value);
          if (taskId) {
            detach = this.attach(taskId, (event) => {
              published.push(event);
              wake?.();
            });
          }
        }
        next = inner.next();
        yield step.value;
      }
    } finally {
      detach?.();
      // A stream waiting on an idle task may never settle; do not wait for it to close.
      if (!finished) void inner.return(undefined).catch(() => undefined);
    }
  }
}
