import type { StreamResponse } from '@a2a-js/sdk';
import { hangUpSignal } from '../hang-up.js';

export interface TaskEvent {
  event: StreamResponse;
  /** The turn that produced it: the id of the user message it answers. */
  turnId: string;
  /** The turn's last event. */
  final: boolean;
}

type Listener = (event: TaskEvent) => void;

/** A subscription that buffers what arrives until it is read. */
export interface EventSubscription extends AsyncIterable<TaskEvent> {
  close(): void;
}

/** In-process fan-out of turn events to the streams open on each task. */
export class TaskEvents {
  private readonly listeners = new Map<string, Set<Listener>>();

  publish(taskId: string, event: TaskEvent): void {
    for (const listener of this.listeners.get(taskId) ?? []) listener(event);
  }

  /** How many subscriptions are open on the task. */
  count(taskId: string): number {
    return this.listeners.get(taskId)?.size ?? 0;
  }

  /**
   * A subscription made while a request is handled closes when that request's
   * client hangs up: nobody reads it any more, and it would buffer for good.
   */
  subscribe(taskId: string, until: AbortSignal | undefined = hangUpSignal()): EventSubscription {
    const buffered: TaskEvent[] = [];
    let wake: (() => void) | undefined;
    let closed = false;
    const listener: Listener = (event) => {
      buffered.push(event);
      wake?.();
    };
    let listeners = this.listeners.get(taskId);
    if (!listeners) this.listeners.set(taskId, (listeners = new Set()));
    listeners.add(listener);
    const close = () => {
      if (closed) return;
      closed = true;
      listeners.delete(listener);
      if (listeners.size === 0 && this.listeners.get(taskId) === listeners)
        this.listeners.delete(taskId);
      until?.removeEventListener('abort', close);
      wake?.();
    };
    if (until?.aborted) close();
    else until?.addEventListener('abort', close, { once: true });
    return {
      close,
      async *[Symbol.asyncIterator]() {
        try {
          while (!closed) {
            const next = buffered.shift();
            if (next) {
              yield next;
              continue;
            }
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
          }
        } finally {
          close();
        }
      },
    };
  }
}
