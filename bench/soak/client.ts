/** What every soak action works with, and the rules they share. */
import type { Ledger, Tally, TaskRecord } from './ledger.js';
import type { Wire, WireError } from './wire.js';

export interface ClientContext {
  wire: Wire;
  ledger: Ledger;
  tally: Tally;
  random: () => number;
  /** A label unique to this client's next message, so that every text can be traced. */
  label: () => string;
  /** The conversations (context ids) new tasks join. */
  contexts: string[];
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/**
 * The one refusal a client should expect: an ordinary message or a subscription
 * to a task it canceled. On this harness CancelTask ends a task for good.
 */
export function isExpectedRefusal(task: TaskRecord, error: WireError): boolean {
  return task.cancelRequested && /has ended/.test(error.message);
}

/** Runs one action on a task; anything it throws is an error on that task. */
export async function guarded(
  ctx: ClientContext,
  kind: string,
  task: TaskRecord,
  action: () => Promise<void>,
): Promise<void> {
  ctx.tally.count(kind);
  try {
    await action();
  } catch (error) {
    ctx.tally.error(kind, error instanceof Error ? error.message : String(error), task);
  }
}

/** Labels unique within a run: s0, s1, … */
export function labeler(): () => string {
  let next = 0;
  return () => `s${next++}`;
}

/** A small seeded generator (mulberry32), so that a run's mix can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
