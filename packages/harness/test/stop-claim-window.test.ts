/**
 * A `/stop` or a cancel that reads the running turn in the moment after this
 * instance's claim committed, before the claimed turn is running here, still
 * ends that turn: it waits for the turn here rather than going out on the bus,
 * where no instance would act on it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { STOPPED_BEFORE_ANSWER } from '../src/turns/turn-endings.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { resultOf, rpc, rpcStream, userText, type SseReader } from 'a2a-testing/http';
import { testDatabaseUrl } from 'a2a-testing/stores';

let harness: TestHarness | undefined;
afterEach(() => harness?.stop());

const textOf = (message: any): string =>
  (message?.parts ?? []).map((part: any) => part.text ?? '').join('');

/** The final status of the stream, or `undefined` if none came within `ms`: the model waits 30 s a word. */
async function finalStatusWithin(events: SseReader, ms: number) {
  const waiting = new AbortController();
  const timeout = sleep(ms, undefined, { signal: waiting.signal }).catch(() => undefined);
  const final = (async () => {
    for (let event = await events.next(); event !== undefined; event = await events.next()) {
      const status = resultOf(event).statusUpdate?.status;
      if (status && status.state !== 'TASK_STATE_WORKING') return status;
    }
    return undefined;
  })();
  try {
    return await Promise.race([final, timeout]);
  } finally {
    waiting.abort();
  }
}

/** Holds each claim of this instance after its commit until `release` is called. */
function holdClaims(running: TestHarness) {
  const rows = (running.harness.turns.scheduler as any).rows;
  const claim = rows.claim.bind(rows);
  let claimed!: () => void;
  const committed = new Promise<void>((resolve) => (claimed = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  rows.claim = async (...args: unknown[]) => {
    const row = await claim(...args);
    if (row) {
      claimed();
      await released;
    }
    return row;
  };
  return { committed, release };
}

it.each(['/stop', 'CancelTask'])(
  '%s between the claim and the turn starting here ends the turn',
  async (how) => {
    harness = await startHarness({
      config: { offline: { latencyMs: 30_000 } },
      databaseUrl: testDatabaseUrl('postgres'),
    });
    const claims = holdClaims(harness);
    const { events } = await rpcStream(harness.url, 'SendStreamingMessage', {
      message: userText('take your time'),
    });
    const first = resultOf((await events.next())!);
    const taskId: string = first.task.id;
    await claims.committed;
    if (how === '/stop') {
      const stop = await rpc(harness.url, 'SendMessage', {
        message: userText('/stop', { taskId }),
      });
      expect(textOf(stop.body.result.task.status.message)).toMatch(
        /^Stopped the answer in progress/,
      );
    } else {
      const canceled = await rpc(harness.url, 'CancelTask', { id: taskId });
      expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
    }
    claims.release();
    const final = await finalStatusWithin(events, 15_000);
    if (how === '/stop') {
      expect(final?.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(textOf(final?.message)).toBe(STOPPED_BEFORE_ANSWER);
    } else {
      expect(final?.state).toBe('TASK_STATE_CANCELED');
    }
  },
  60_000,
);
