/**
 * kill -9 with one message running and two queued behind it, on SQLite: after
 * a restart on the same data, each accepted message has an outcome of its own
 * (the running one the "interrupted" note, each queued one a note saying it
 * was not run), and a retry under the same messageId gets that outcome at once.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_BY_RESTART } from '../src/turns/turn-endings.js';
import { QUEUED_AT_STOP } from '../src/turns/turn-lifecycle.js';
import { resultOf, rpc, rpcStream, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';

const textOf = (message: any): string => message?.parts?.[0]?.text ?? '';
const words = (count: number) => Array.from({ length: count }, (_, i) => `w${i}`).join(' ');

let harness: HarnessProcess | undefined;

afterAll(async () => {
  if (harness && harness.child.exitCode === null) {
    harness.child.kill('SIGTERM');
    await harness.exited;
  }
});

/** Settles with `promise`, or fails instead of hanging. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer`)), ms)),
  ]);
}

describe('a crash with queued messages', () => {
  it('after kill -9 and a restart, the running and both queued messages each have their own outcome; retries get it and never hang', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-queued-crash-'));
    const config = writeConfig(dataDir, { offline: { latencyMs: 50 } });
    const args = ['--data', dataDir, '--config', config];
    harness = await spawnHarness(args);

    const running = userText(words(400));
    const first = await rpcStream(harness.url, 'SendStreamingMessage', { message: running });
    const taskId = resultOf(await first.events.next()).task.id;
    expect(resultOf(await first.events.next()).statusUpdate.status.state).toBe(
      'TASK_STATE_WORKING',
    );
    const queued = [userText('second', { taskId }), userText('third', { taskId })];
    for (const message of queued) {
      const stream = await rpcStream(harness.url, 'SendStreamingMessage', { message });
      // Stored: the task event comes once the message is.
      expect(resultOf(await stream.events.next()).task.id).toBe(taskId);
    }

    harness.child.kill('SIGKILL');
    await harness.exited;
    harness = await spawnHarness(args);

    const task = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const notes = task.history.filter((m: any) => m.role === 'ROLE_AGENT').map(textOf);
    expect(notes).toEqual([INTERRUPTED_BY_RESTART, QUEUED_AT_STOP, QUEUED_AT_STOP]);

    // A fresh message is answered as its own...
    const fresh = await within(
      rpc(harness.url, 'SendMessage', { message: userText('fresh', { taskId }) }),
      20_000,
      'the fresh message',
    );
    expect(textOf(fresh.body.result.task.status.message)).toContain('You said: fresh');

    // ...and each retry gets its own outcome, never another message's.
    const retried = [];
    // The first message made the task: its retry names the task the client was told of.
    for (const message of [{ ...running, taskId }, ...queued]) {
      const { body } = await within(
        rpc(harness.url, 'SendMessage', { message }),
        20_000,
        `the retry of ${textOf(message).slice(0, 10)}`,
      );
      retried.push(textOf(body.result.task.status.message));
    }
    expect(retried).toEqual([INTERRUPTED_BY_RESTART, QUEUED_AT_STOP, QUEUED_AT_STOP]);

    const streamed = await rpcStream(harness.url, 'SendStreamingMessage', { message: queued[1] });
    const events = await within(streamed.events.rest(), 20_000, 'the streamed retry');
    expect(textOf(resultOf(events.at(-1)).statusUpdate.status.message)).toBe(QUEUED_AT_STOP);
  }, 120_000);
});
