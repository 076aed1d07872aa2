import type { Part, StreamResponse } from '@a2a-js/sdk';

/** A turn event as `TaskEvents` carries it. */
interface TurnEventLike {
  event: StreamResponse;
  turnId: string;
  final: boolean;
}

/**
 * Fan-out to many streams without holding up the rest of the server. Every
 * stream woken by one event runs its whole path (SSE encoding, the write) in
 * one go; with thousands of streams on a task that starved the turn itself and
 * other callers' requests. Past `SYNC_WAKES` streams on a task, streams are
 * woken in batches of `WAKE_BATCH`, one batch per turn of the event loop, and a
 * stream that was woken late sends the answer chunks that piled up as one.
 */
export const SYNC_WAKES = 16;
const WAKE_BATCH = 64;

let pending: (() => void)[] = [];
let scheduled = false;

/** Runs `wake` in a later batch; the order of calls is kept. */
export function wakeFairly(wake: () => void): void {
  pending.push(wake);
  if (scheduled) return;
  scheduled = true;
  setImmediate(runBatch);
}

function runBatch(): void {
  const batch = pending.slice(0, WAKE_BATCH);
  pending = pending.slice(WAKE_BATCH);
  for (const wake of batch) wake();
  if (pending.length > 0) setImmediate(runBatch);
  else scheduled = false;
}

/**
 * Takes the next event from `buffered`; answer chunks queued right behind it
 * (same turn, same artifact, appending) are joined to it, text to text, so the
 * stream writes once what it would have written several times.
 */
export function takeJoined<T extends TurnEventLike>(buffered: T[]): T | undefined {
  const first = buffered.shift();
  if (!first || buffered.length === 0) return first;
  let joined = first;
  while (buffered.length > 0) {
    const next = joinChunks(joined, buffered[0]!);
    if (!next) break;
    joined = next;
    buffered.shift();
  }
  return joined;
}

function joinChunks<T extends TurnEventLike>(a: T, b: T): T | undefined {
  if (a.final || b.final || a.turnId !== b.turnId) return undefined;
  const x = a.event.payload;
  const y = b.event.payload;
  if (x?.$case !== 'artifactUpdate' || y?.$case !== 'artifactUpdate') return undefined;
  if (!y.value.append || x.value.lastChunk) return undefined;
  const left = x.value.artifact;
  const right = y.value.artifact;
  if (!left || !right || left.artifactId !== right.artifactId) return undefined;
  const text = soleText(left.parts);
  const more = soleText(right.parts);
  if (text === undefined || more === undefined) return undefined;
  const part = left.parts[0]!;
  return {
    ...a,
    event: {
      payload: {
        $case: 'artifactUpdate',
        value: {
          ...x.value,
          artifact: {
            ...left,
            parts: [{ ...part, content: { $case: 'text', value: text + more } }],
          },
          lastChunk: y.value.lastChunk,
        },
      },
    },
  };
}

function soleText(parts: Part[]): string | undefined {
  const only = parts.length === 1 ? parts[0] : undefined;
  return only?.content?.$case === 'text' && !only.metadata ? only.content.value : undefined;
}
