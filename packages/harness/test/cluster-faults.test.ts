/**
 * The cluster survives its database and its own instances' faults. Three real
 * `a2a-harness serve` processes share a PostgreSQL cluster of this file's own
 * (it is restarted), with a slow-streaming model behind them (a fake OpenAI
 * server, the only fake). Each fault runs under a mixed load recorded in a
 * client-side ledger (support/cluster-ledger.ts), then the ledger is checked
 * against the store and the model's request log: nothing answered is lost,
 * nothing runs twice, no task stays WORKING, no stream or blocking call waits
 * longer than the lease and a few seconds, no chunk comes after a final event.
 * The recovery times it prints are the ones docs/scaling.md gives.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenApplicationName, poolApplicationName } from '../src/cluster/connection-names.js';
import { INTERRUPTED_BY_RESTART } from '../src/turns/turn-endings.js';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { rpc, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { startThrowawayPostgres, type ThrowawayPostgres } from 'a2a-testing/throwaway-postgres';
import {
  sendBlocking,
  streamMessage,
  streamMessageRetried,
  subscribe,
  waitUntil,
  type StreamEntry,
  type Subscription,
} from './support/cluster-ledger.js';

/** Short, so that the suite is: a lease expires this long after its last renewal. */
const LEASE_MS = 4000;
/** What a stream or a blocking call may wait at most, counted from the fault. */
const WAIT_BOUND_MS = LEASE_MS + 5000;
const QUEUED_PER_TASK = 4;
/** Per streamed word: an answer of `ANSWER_WORDS` takes about 2.4 s. */
const CHUNK_DELAY_MS = 60;
const ANSWER_WORDS = 40;

let postgres: ThrowawayPostgres;
let fake: FakeOpenAI;
let args: string[];
const instances: HarnessProcess[] = [];
const streams: StreamEntry[] = [];
const measured: Record<string, string> = {};

const idOf = (instance: HarnessProcess) =>
  instance.logs.find((line) => line.msg === 'joined the instances on this database')
    ?.instance as string;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every text the model was asked to answer, as often as it was asked. */
const modelCalls = () =>
  fake.requests
    .filter((request) => request.path === '/v1/chat/completions')
    .map((request) => request.body.messages.at(-1)?.content as string);

async function admin<T>(query: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    return (await client.query(query, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Ends every connection whose application_name is `name`; how many there were. */
async function terminate(name: string): Promise<number> {
  const rows = await admin(
    'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
    [name],
  );
  return rows.length;
}

/** A streamed message on `instance`, in the ledger. */
function stream(instance: HarnessProcess, text: string, taskId?: string): StreamEntry {
  const entry = streamMessage(instance.listeningUrl, text, taskId);
  streams.push(entry);
  return entry;
}

/** Waits until every entry's stream has ended, and returns when the last did. */
async function ended(entries: StreamEntry[], since: number, what: string): Promise<number> {
  await Promise.race([
    Promise.all(entries.map((entry) => entry.done)),
    sleep(WAIT_BOUND_MS + 10_000),
  ]);
  for (const entry of entries) {
    expect(entry.endedAt, `${what}: "${entry.text}" still waiting`).toBeDefined();
    expect(entry.endedAt! - since, `${what}: "${entry.text}" waited too long`).toBeLessThan(
      WAIT_BOUND_MS,
    );
    expect(entry.afterFinal, `${what}: events after the final one`).toBe(0);
  }
  return Math.max(...entries.map((entry) => entry.endedAt!)) - since;
}

async function untilStreaming(entries: StreamEntry[]): Promise<void> {
  await waitUntil(() => entries.every((entry) => entry.chunks > 0 || entry.error), 20_000);
}

function noLateChunks(subscriptions: Subscription[]): void {
  for (const subscription of subscriptions) expect(subscription.lateChunks).toBe(0);
}

/** A reply the model writes: long for turns under a fault, short for the queue's burst. */
function answerTo(text: string): string {
  const words = text.startsWith('burst') ? 3 : text.startsWith('hold') ? 1000 : ANSWER_WORDS;
  return `answer to ${text}: ${Array.from({ length: words }, (_, i) => `w${i}`).join(' ')}`;
}

async function spawnInstance(): Promise<HarnessProcess> {
  return spawnHarness(args, { OPENAI_API_KEY: 'sk-faults', OPENAI_BASE_URL: fake.baseUrl });
}

beforeAll(async () => {
  [postgres, fake] = await Promise.all([
    startThrowawayPostgres(),
    startFakeOpenAI({
      models: ['gpt-test'],
      apiKey: 'sk-faults',
      chunkDelayMs: CHUNK_DELAY_MS,
      reply: (request) => answerTo(request.lastUserText),
    }),
  ]);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-faults-'));
  const config = writeConfig(dataDir, {
    defaultModel: 'openai/gpt-test',
    limits: { queuedPerTask: QUEUED_PER_TASK },
    cluster: { leaseMs: LEASE_MS },
    turns: { modelWorker: false },
  });
  args = ['--data', dataDir, '--config', config, '--database-url', postgres.url];
  instances.push(...(await Promise.all([0, 1, 2].map(() => spawnInstance()))));
}, 120_000);

afterAll(async () => {
  for (const instance of instances) {
    instance.child.kill('SIGCONT');
    instance.child.kill('SIGTERM');
  }
  await Promise.all(instances.map((instance) => instance.exited));
  await fake?.close();
  await postgres?.stop();
  console.info('cluster faults, as measured:', measured);
}, 60_000);

describe('a cluster of three instances under faults', () => {
  it('60 concurrent sends to one task from three instances: exactly queuedPerTask are taken, each runs once', async () => {
    // Streams for a minute unless stopped: it runs through the whole burst.
    const first = stream(instances[0]!, 'hold the task');
    await untilStreaming([first]);
    const sends = Array.from({ length: 60 }, (_, i) =>
      rpc(instances[i % 3]!.listeningUrl, 'SendMessage', {
        message: userText(`burst ${i}`, { taskId: first.taskId }),
        configuration: { returnImmediately: true },
      }),
    );
    const answers = await Promise.all(sends);
    const taken = answers.filter((answer) => answer.body.result);
    const refused = answers.filter((answer) => answer.body.error?.code === -32004);
    expect(first.endedAt).toBeUndefined();
    expect(taken).toHaveLength(QUEUED_PER_TASK);
    expect(refused).toHaveLength(60 - QUEUED_PER_TASK);
    const stop = await rpc(instances[2]!.listeningUrl, 'SendMessage', {
      message: userText('/stop', { taskId: first.taskId }),
    });
    expect(stop.body.result.task.status.message.metadata).toEqual({ command: 'stop' });
    await first.done;
    expect(first.finalText).toMatch(/^answer to hold the task: w0/);
    const texts = taken.map((answer) => answer.body.result.task.history[0].parts[0].text);
    await waitUntil(() => texts.every((text) => modelCalls().includes(text)), 30_000);
  }, 60_000);

  it("terminating an instance's LISTEN connection costs it nothing", async () => {
    const [a, b] = instances as [HarnessProcess, HarnessProcess];
    const onA = [stream(a, 'listen one'), stream(a, 'listen two')];
    await untilStreaming(onA);
    const watching = await subscribe(b.listeningUrl, onA[0]!.taskId!);
    const at = Date.now();
    expect(await terminate(listenApplicationName(idOf(a)))).toBe(1);
    // Each reconnect ended again, for 2 s.
    while (Date.now() - at < 2000) {
      await terminate(listenApplicationName(idOf(a)));
      await sleep(50);
    }
    await ended(onA, at, 'LISTEN drop');
    for (const entry of onA) expect(entry.finalText).toBe(answerTo(entry.text));
    await waitUntil(() => watching.finals.length > 0, WAIT_BOUND_MS);
    expect(watching.finals).toEqual([answerTo('listen one')]);
    noLateChunks([watching]);
    await watching.close();
  }, 60_000);

  it("terminating an instance's pool connections: requests on them fail clearly, turns finish", async () => {
    const [a, b] = instances as [HarnessProcess, HarnessProcess];
    const onA = [stream(a, 'pool one'), stream(a, 'pool two')];
    await untilStreaming(onA);
    const watching = await subscribe(b.listeningUrl, onA[1]!.taskId!);
    const at = Date.now();
    let terminated = 0;
    for (let round = 0; round < 5; round++) {
      terminated += await terminate(poolApplicationName(idOf(a)));
      await sleep(200);
    }
    expect(terminated).toBeGreaterThan(0);
    await ended(onA, at, 'pool connections');
    for (const entry of onA) expect(entry.finalText).toBe(answerTo(entry.text));
    await waitUntil(() => watching.finals.length > 0, WAIT_BOUND_MS);
    expect(watching.finals).toEqual([answerTo('pool two')]);
    noLateChunks([watching]);
    await watching.close();
    expect((await rpc(a.listeningUrl, 'SendMessage', { message: userText('/help') })).status).toBe(
      200,
    );
  }, 60_000);

  it('`pg_ctl restart` under load: every turn ends with its answer, none is taken over', async () => {
    const [a, b, c] = instances as [HarnessProcess, HarnessProcess, HarnessProcess];
    const running = [
      stream(a, 'restart one'),
      stream(b, 'restart two'),
      stream(c, 'restart three'),
    ];
    await untilStreaming(running);
    const watching = await subscribe(a.listeningUrl, running[2]!.taskId!);
    const blocking = sendBlocking(b.listeningUrl, 'restart blocking', running[1]!.taskId);
    const at = Date.now();
    await postgres.restart();
    measured['pg_ctl restart -m fast took'] = `${Date.now() - at} ms`;
    // Sent while the server comes back: tried again, same messageId, until it is taken.
    const late = await streamMessageRetried(c.listeningUrl, 'restart late');
    streams.push(late);
    const lastEnd = await ended([...running, late], at, 'restart');
    measured['pg_ctl restart: the last stream ended after'] = `${lastEnd} ms`;
    for (const entry of [...running, late]) expect(entry.finalText).toBe(answerTo(entry.text));
    const answered = await blocking;
    expect(answered.text).toBe(answerTo('restart blocking'));
    expect(answered.ms).toBeLessThan(WAIT_BOUND_MS + 2 * CHUNK_DELAY_MS * ANSWER_WORDS);
    await waitUntil(() => watching.finals.length > 0, WAIT_BOUND_MS);
    expect(watching.finals[0]).toBe(answerTo('restart three'));
    noLateChunks([watching]);
    await watching.close();
  }, 60_000);

  it('SIGSTOP longer than the lease: the others end its turns; woken, it ends its own streams with the same final event, and no chunk follows', async () => {
    const [a, b, c] = instances as [HarnessProcess, HarnessProcess, HarnessProcess];
    const onA = [stream(a, 'pause one'), stream(a, 'pause two')];
    await untilStreaming(onA);
    const watching = [
      await subscribe(b.listeningUrl, onA[0]!.taskId!),
      await subscribe(a.listeningUrl, onA[1]!.taskId!),
    ];
    const queued = stream(c, 'pause queued', onA[0]!.taskId);
    await waitUntil(() => queued.taskId !== undefined);
    const at = Date.now();
    a.child.kill('SIGSTOP');
    await waitUntil(() => watching[0]!.finals.length > 0, WAIT_BOUND_MS);
    measured['SIGSTOP: the others end its turns after'] = `${Date.now() - at} ms`;
    await sleep(Math.max(0, LEASE_MS + 2000 - (Date.now() - at)));
    const wokenAt = Date.now();
    a.child.kill('SIGCONT');
    await ended([...onA, queued], at, 'SIGSTOP');
    measured['SIGSTOP: woken, its own streams end after'] = `${
      Math.max(...onA.map((entry) => entry.endedAt!)) - wokenAt
    } ms`;
    for (const entry of onA) expect(entry.finalText).toBe(INTERRUPTED_BY_RESTART);
    expect(watching[0]!.finals[0]).toBe(INTERRUPTED_BY_RESTART);
    await waitUntil(() => watching[1]!.finals.length > 0, 5000);
    expect(watching[1]!.finals[0]).toBe(INTERRUPTED_BY_RESTART);
    expect(queued.finalText).toBe(answerTo('pause queued'));
    noLateChunks(watching);
    await Promise.all(watching.map((subscription) => subscription.close()));
    // It takes a lease again and serves turns as before.
    const again = stream(a, 'pause after');
    await again.done;
    expect(again.finalText).toBe(answerTo('pause after'));
  }, 60_000);

  it('kill -9 of an instance: the others end its turns with the note once its lease expires, then run what waited', async () => {
    const [a, b, c] = instances as [HarnessProcess, HarnessProcess, HarnessProcess];
    const onA = [stream(a, 'kill one'), stream(a, 'kill two')];
    const onB = stream(b, 'kill three');
    await untilStreaming([...onA, onB]);
    const watching = await subscribe(c.listeningUrl, onA[0]!.taskId!);
    const queued = stream(c, 'kill queued', onA[0]!.taskId);
    await waitUntil(() => queued.taskId !== undefined);

    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    await a.exited;
    await waitUntil(() => watching.finals.length > 0, WAIT_BOUND_MS);
    measured['kill -9: its turns end with the note after'] = `${Date.now() - killedAt} ms`;
    expect(watching.finals[0]).toBe(INTERRUPTED_BY_RESTART);
    await ended([onB, queued], killedAt, 'kill -9');
    expect(onA.every((entry) => entry.broken)).toBe(true);
    expect(queued.finalText).toBe(answerTo('kill queued'));
    expect(onB.finalText).toBe(answerTo('kill three'));
    noLateChunks([watching]);
    await watching.close();
  }, 60_000);

  it('after it all: nothing answered is lost, nothing ran twice, no task stays WORKING, no turn row is left behind', async () => {
    const calls = modelCalls();
    for (const text of new Set(calls))
      expect(calls.filter((call) => call === text)).toHaveLength(1);
    const accepted = streams.filter((entry) => entry.taskId && !entry.error);
    const tasks = new Set(accepted.map((entry) => entry.taskId!));
    const b = instances[1]!;
    for (const taskId of tasks) {
      let task: any;
      for (let i = 0; i < 100; i++) {
        task = (await rpc(b.listeningUrl, 'GetTask', { id: taskId })).body.result;
        if (task.status.state !== 'TASK_STATE_WORKING') break;
        await sleep(100);
      }
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const texts = task.history.map((message: any) => message.parts[0]?.text);
      for (const entry of accepted.filter((each) => each.taskId === taskId)) {
        const ids = task.history.filter((message: any) => message.messageId === entry.messageId);
        expect(ids).toHaveLength(1);
        if (entry.finalText) expect(texts).toContain(entry.finalText);
      }
    }
    expect(await admin('select * from a2a_harness_turns')).toEqual([]);
  }, 60_000);
});
