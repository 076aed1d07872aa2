/**
 * kill -9 with one message running and two queued behind it. After a restart
 * on the same data each accepted message has an outcome of its own, and a
 * retry under the same messageId gets that outcome, never another message's,
 * and never hangs. On SQLite the queue lived in the process: the running
 * message gets the "interrupted" note and each queued one a note saying it
 * was not run. On PostgreSQL the queue is in the database: the running one is
 * interrupted and the queued ones run, on the restarted instance or on
 * another one still alive.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_BY_RESTART } from '../src/turns/turn-endings.js';
import { QUEUED_AT_STOP } from '../src/turns/turn-lifecycle.js';
import { resultOf, rpc, rpcStream, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { processStore, type StoreKind } from 'a2a-testing/stores';

const textOf = (message: any): string => message?.parts?.[0]?.text ?? '';
const words = (count: number) => Array.from({ length: count }, (_, i) => `w${i}`).join(' ');
const answerTo = (text: string) => expect.stringContaining(`You said: ${text}`);
/**
 * The queued messages of a killed instance run elsewhere once its lease lapses:
 * the product's 10 s would be waited out in each PostgreSQL case. With two
 * instances alive, renewed every third of it, the lease of a live instance
 * outlasts two delayed renewals. With one alive at a time on a database of
 * its own, nobody can take a live instance's turns, and the least the config
 * takes is enough.
 */
const LEASE_MS = { twoAlive: 4000, oneAlive: 1000 };

const started: HarnessProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const harness of started.splice(0)) {
    if (harness.child.exitCode !== null || harness.child.signalCode !== null) continue;
    harness.child.kill('SIGTERM');
    await harness.exited;
  }
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function spawn(args: string[]): Promise<HarnessProcess> {
  const harness = await spawnHarness(args);
  started.push(harness);
  return harness;
}

/** Settles with `promise`, or fails instead of hanging. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer`)), ms)),
  ]);
}

/**
 * The arguments of the instance to crash, whose slow words keep its turn
 * running, and of the instance that carries on, which answers at once. They
 * share the data folder and, on PostgreSQL, a database of its own: a
 * restarted instance recovers every task it finds.
 */
async function dataArgs(kind: StoreKind, leaseMs = LEASE_MS.oneAlive) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-queued-crash-'));
  const store = await processStore(kind, { ownDatabase: 'queued_crash' });
  cleanups.push(store.drop);
  const configFile = (config: unknown) =>
    writeConfig(mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-queued-crash-config-')), config);
  const on = ['--data', dataDir, ...store.flags];
  const cluster = { leaseMs };
  return {
    crashing: [...on, '--config', configFile({ offline: { latencyMs: 50 }, cluster })],
    carryingOn: [...on, '--config', configFile({ offline: { latencyMs: 1 }, cluster })],
  };
}

/**
 * Starts a long turn on `harness` and queues two messages behind it, each
 * stored (its task event came), then kills the process with SIGKILL.
 */
async function crashWithQueued(harness: HarnessProcess) {
  const running = userText(words(400));
  const first = await rpcStream(harness.url, 'SendStreamingMessage', { message: running });
  const taskId = resultOf(await first.events.next()).task.id as string;
  expect(resultOf(await first.events.next()).statusUpdate.status.state).toBe('TASK_STATE_WORKING');
  const queued = [userText('second', { taskId }), userText('third', { taskId })];
  for (const message of queued) {
    const stream = await rpcStream(harness.url, 'SendStreamingMessage', { message });
    // Stored: the task event comes once the message is.
    expect(resultOf(await stream.events.next()).task.id).toBe(taskId);
  }
  harness.child.kill('SIGKILL');
  await harness.exited;
  // The first message made the task: its retry names the task the client was told of.
  return { taskId, messages: [{ ...running, taskId }, ...queued] };
}

/** Sends each message again, all at once with a fresh one; the answers' texts, retries first. */
async function retryAll(url: string, taskId: string, messages: object[]) {
  const send = (message: any, what: string) =>
    within(rpc(url, 'SendMessage', { message }), 20_000, what).then(({ body }) =>
      textOf(body.result?.task?.status?.message ?? body.error),
    );
  const fresh = send(userText('fresh', { taskId }), 'the fresh message');
  const retried = await Promise.all(
    messages.map((message, i) => send(message, `the retry of message ${i + 1}`)),
  );
  return { retried, fresh: await fresh };
}

/** The last event of a streamed retry of `message`: the final status with its outcome. */
async function streamedRetry(url: string, message: object): Promise<string> {
  const streamed = await rpcStream(url, 'SendStreamingMessage', { message });
  const events = await within(streamed.events.rest(), 20_000, 'the streamed retry');
  return textOf(resultOf(events.at(-1)).statusUpdate.status.message);
}

describe('on SQLite', () => {
  it('after kill -9 and a restart, the running and both queued messages each have their own outcome; retries get it and never hang', async () => {
    const args = await dataArgs('sqlite');
    const { taskId, messages } = await crashWithQueued(await spawn(args.crashing));
    const harness = await spawn(args.carryingOn);

    const task = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const notes = task.history.filter((m: any) => m.role === 'ROLE_AGENT').map(textOf);
    expect(notes).toEqual([INTERRUPTED_BY_RESTART, QUEUED_AT_STOP, QUEUED_AT_STOP]);

    const { retried, fresh } = await retryAll(harness.url, taskId, messages);
    expect(fresh).toEqual(answerTo('fresh'));
    expect(retried).toEqual([INTERRUPTED_BY_RESTART, QUEUED_AT_STOP, QUEUED_AT_STOP]);
    expect(await streamedRetry(harness.url, messages[2]!)).toBe(QUEUED_AT_STOP);
  }, 120_000);
});

describe('on PostgreSQL', () => {
  it('after kill -9 and a restart, the running message is interrupted and both queued ones run; retries sent at once get their own outcome and never hang', async () => {
    const args = await dataArgs('postgres');
    const { taskId, messages } = await crashWithQueued(await spawn(args.crashing));
    const harness = await spawn(args.carryingOn);

    // Sent the moment the instance is back, while the queued turns wait or run.
    const early = streamedRetry(harness.url, messages[1]!);
    const { retried, fresh } = await retryAll(harness.url, taskId, messages);
    expect(retried).toEqual([INTERRUPTED_BY_RESTART, answerTo('second'), answerTo('third')]);
    expect(fresh).toEqual(answerTo('fresh'));
    expect(await early).toEqual(answerTo('second'));
    expect(await streamedRetry(harness.url, messages[2]!)).toEqual(answerTo('third'));

    // Each message has one outcome, in order, and nothing ran twice.
    const task = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const answers = task.history.filter((m: any) => m.role === 'ROLE_AGENT').map(textOf);
    expect(answers).toEqual([
      INTERRUPTED_BY_RESTART,
      answerTo('second'),
      answerTo('third'),
      answerTo('fresh'),
    ]);
  }, 120_000);

  it('after kill -9 of one of two instances, the other runs the queued messages; retries sent to it at once get their own outcome', async () => {
    const args = await dataArgs('postgres', LEASE_MS.twoAlive);
    const survivor = await spawn(args.carryingOn);
    const { taskId, messages } = await crashWithQueued(await spawn(args.crashing));

    // Before the survivor has found the dead instance: the retries wait for it, bounded.
    const { retried, fresh } = await retryAll(survivor.url, taskId, messages);
    expect(retried).toEqual([INTERRUPTED_BY_RESTART, answerTo('second'), answerTo('third')]);
    expect(fresh).toEqual(answerTo('fresh'));
    expect(await streamedRetry(survivor.url, messages[1]!)).toEqual(answerTo('second'));
  }, 120_000);
});
