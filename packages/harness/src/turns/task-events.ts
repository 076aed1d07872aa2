import type { Artifact, StreamResponse } from '@a2a-js/sdk';
import { AnswersInProgress } from './answers-in-progress.js';
import { EndedTurns } from './ended-turns.js';
import { SYNC_WAKES, takeJoined, wakeFairly } from './fair-fan-out.js';

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
  /**
   * The answer in progress when the subscription was made: the events it
   * yields append to exactly this (SEMANTICS §4, joining a running answer).
   */
  readonly answerSoFar: Artifact | undefined;
  close(): void;
}

/**
 * Carries turn events to the other processes serving the same tasks; what
 * they receive goes to their own `deliver`, never back to the publisher.
 */
export interface TaskEventRelay {
  send(taskId: string, event: TaskEvent): void;
}

/**
 * Fan-out of turn events to the streams open on each task: in process, and
 * through the relay (when there is one) to the streams other processes hold.
 */
export class TaskEvents {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly answers = new AnswersInProgress();
  private readonly ended = new EndedTurns();

  constructor(private readonly relay?: TaskEventRelay) {}

  publish(taskId: string, event: TaskEvent): void {
    this.relay?.send(taskId, event);
    this.deliver(taskId, event);
  }

  /**
   * To this process's streams only: what the relay brought from another
   * process. Nothing of a turn follows its final event: a turn taken over from
   * an instance that was paused may still stream there for a moment.
   */
  deliver(taskId: string, event: TaskEvent): void {
    if (this.ended.has(taskId, event.turnId)) return;
    if (event.final) this.ended.add(taskId, event.turnId);
    this.answers.observe(taskId, event);
    for (const listener of this.listeners.get(taskId) ?? []) listener(event);
  }

  /** The answer a turn of the task is streaming, so far, as an artifact; undefined when none is known. */
  answerSoFar(taskId: string): Artifact | undefined {
    return this.answers.artifactOf(taskId);
  }

  /** The text of that answer so far; '' when none is known. */
  answerTextSoFar(taskId: string): string {
    const parts = this.answers.artifactOf(taskId)?.parts ?? [];
    return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
  }

  /** Whether a stream of this process is open on the task. */
  watched(taskId: string): boolean {
    return this.listeners.has(taskId);
  }

  /** How many subscriptions are open on the task. */
  count(taskId: string): number {
    return this.listeners.get(taskId)?.size ?? 0;
  }

  /**
   * A subscription made while a request is handled closes when that request's
   * client hangs up: nobody reads it any more, and it would buffer for good.
   */
  subscribe(taskId: string, until?: AbortSignal): EventSubscription {
    const buffered: TaskEvent[] = [];
    let wake: (() => void) | undefined;
    let closed = false;
    let listeners = this.listeners.get(taskId);
    if (!listeners) this.listeners.set(taskId, (listeners = new Set()));
    const watchers = listeners;
    let wakeQueued = false;
    const listener: Listener = (event) => {
      buffered.push(event);
      if (!wake) return;
      if (watchers.size <= SYNC_WAKES) wake();
      else if (!wakeQueued) {
        // Once in the queue is enough: the stream takes everything buffered by then.
        wakeQueued = true;
        wakeFairly(() => {
          wakeQueued = false;
          wake?.();
        });
      }
    };
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
      answerSoFar: this.answers.artifactOf(taskId),
      close,
      async *[Symbol.asyncIterator]() {
        try {
          while (!closed) {
            const next = takeJoined(buffered);
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
