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
import { createServer } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenApplicationName, poolApplicationName } from '../src/cluster/connection-names.js';
import { limitWords } from '../src/config/limit-words.js';
import { CHANNEL } from '../src/cluster/event-bus.js';
import { INTERRUPTED_BY_RESTART } from '../src/turns/turn-endings.js';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { rpc, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { startThrowawayPostgres, type ThrowawayPostgres } from 'a2a-testing/throwaway-postgres';
import {
  sendBlocking,
  sendBurst,
  streamMessage,
  streamMessageRetried,
  subscribe,
  waitUntil,
  type Burst,
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
/** The config file with a lease of `leaseMs`. */
let configWith: (leaseMs: number) => string;
const instances: HarnessProcess[] = [];
/** Started by a test, on top of the three. */
const extras: HarnessProcess[] = [];
const streams: StreamEntry[] = [];
const bursts: Burst[] = [];
const measured: Record<string, string> = {};

const idOf = (instance: HarnessProcess) =>
  instance.logs.find((line) => line.msg === 'joined the instances on this database')
    ?.instance as string;
/** Warnings every fault here causes: a connection lost, a client gone. */
const routine = (line: Record<string, unknown>) =>
  /^(database: lost a connection|cluster: lost the listening connection|request aborted)/.test(
    String(line.msg),
  );

/** A port nothing listens on just now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
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

/** The fault is for `instance`: each entry's turn must run there, not on the one that claimed it first. */
async function runOn(instance: HarnessProcess, entries: StreamEntry[]): Promise<void> {
  for (const entry of entries) {
    const [row] = await admin<{ instance: string }>(
      'select instance from a2a_harness_turns where task_id = $1 and instance is not null',
      [entry.taskId],
    );
    expect(row?.instance, `where "${entry.text}" runs`).toBe(idOf(instance));
  }
}

function noLateChunks(subscriptions: Subscription[]): void {
  for (const subscription of subscriptions) expect(subscription.lateChunks).toBe(0);
}

/**
 * While a turn of a new task streams, 60 sends to that task at once over
 * `via`: exactly `QUEUED_PER_TASK` are taken and the rest refused with the
 * documented error. `/stop` on the last of `via` then ends the turn, and each
 * taken message runs (the final check reads them in the store).
 */
async function queueHolds(label: string, via: HarnessProcess[]): Promise<void> {
  const hold = stream(via[0]!, `hold ${label}`);
  await untilStreaming([hold]);
  const urls = via.map((instance) => instance.listeningUrl);
  const burst = await sendBurst(urls, hold.taskId!, `burst ${label}`, 60);
  bursts.push(burst);
  expect(hold.endedAt, `${label}: the held turn ended during the burst`).toBeUndefined();
  expect(burst.taken, `${label}: taken`).toHaveLength(QUEUED_PER_TASK);
  const refusal = {
    code: -32004,
    message: limitWords.queuedPerTask(hold.taskId!, QUEUED_PER_TASK),
  };
  expect(burst.errors).toEqual(burst.refused.map(() => refusal));
  const stop = await rpc(via.at(-1)!.listeningUrl, 'SendMessage', {
    message: userText('/stop', { taskId: hold.taskId }),
  });
  expect(stop.body.result.task.status.message.metadata).toEqual({ command: 'stop' });
  await hold.done;
  // The stopped answer is what its streams were shown: a start of the whole answer.
  const shown = hold.finalText ?? '';
  expect(shown, `${label}: the held turn's final text`).not.toBe('');
  expect(answerTo(`hold ${label}`).startsWith(shown), `${label}: "${shown.slice(0, 80)}"`).toBe(
    true,
  );
  await waitUntil(() => burst.taken.every((text) => modelCalls().includes(text)), 30_000);
}

/**
 * Turns a fault must find still running, however slow the machine is to set
 * the fault up: the queue's held turn, and those of an instance paused or
 * killed. They end by /stop or by the fault, never by their last word.
 */
const CUT_SHORT = /^(hold|pause (one|two)|kill (one|two)|rerun one)/;

/** A reply the model writes: long for turns a fault cuts short, short for the queue's burst. */
function answerTo(text: string): string {
  const words = text.startsWith('burst') ? 3 : CUT_SHORT.test(text) ? 1000 : ANSWER_WORDS;
  return `answer to ${text}: ${Array.from({ length: words }, (_, i) => `w${i}`).join(' ')}`;
}

/** An instance on the suite's database; `extra` arguments override the suite's. */
async function spawnInstance(extra: string[] = []): Promise<HarnessProcess> {
  return spawnHarness([...args, ...extra], {
    OPENAI_API_KEY: 'sk-faults',
    OPENAI_BASE_URL: fake.baseUrl,
  });
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
  configWith = (leaseMs) =>
    writeConfig(mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-faults-config-')), {
      defaultModel: 'openai/gpt-test',
      limits: { queuedPerTask: QUEUED_PER_TASK },
      cluster: { leaseMs },
      turns: { modelWorker: false },
    });
  args = ['--data', dataDir, '--config', configWith(LEASE_MS), '--database-url', postgres.url];
  instances.push(...(await Promise.all([0, 1, 2].map(() => spawnInstance()))));
}, 120_000);

afterAll(async () => {
  const all = [...instances, ...extras];
  for (const instance of all) {
    instance.child.kill('SIGCONT');
    instance.child.kill('SIGTERM');
  }
  await Promise.all(all.map((instance) => instance.exited));
  // What the instances warned of: where to look first when a check above failed.
  all.forEach((instance, i) => {
    for (const line of instance.logs.filter(
      (each) => (each.level as number) >= 40 && !routine(each),
    ))
      console.info(`instance ${i} at ${line.time}: ${line.msg}`, line.tasks ?? line.err ?? '');
  });
  await fake?.close();
  await postgres?.stop();
  console.info('cluster faults, as measured:', measured);
}, 60_000);

describe('a cluster of three instances under faults', () => {
  it('60 concurrent sends to one task from three instances: exactly queuedPerTask are taken, each runs once', async () => {
    await queueHolds('at first', instances);
  }, 60_000);

  it('a notification delivered twice reaches a subscriber on another instance once', async () => {
    const [a, b] = instances as [HarnessProcess, HarnessProcess];
    const told = stream(a, 'told twice');
    await told.done;
    const heard: string[] = [];
    const listener = new pg.Client({ connectionString: postgres.url });
    listener.on('notification', (notice) => heard.push(notice.payload ?? ''));
    await listener.connect();
    await listener.query(`LISTEN ${CHANNEL}`);
    const watching = await subscribe(b.listeningUrl, told.taskId!);
    const command = (text: string) =>
      rpc(a.listeningUrl, 'SendMessage', { message: userText(text, { taskId: told.taskId }) });
    try {
      await command('/status');
      const reply = ` reply ${told.taskId} `;
      await waitUntil(
        () => watching.commands.length === 1 && heard.some((notice) => notice.includes(reply)),
        10_000,
      );
      // The very notification A sent, sent again: as a NOTIFY tried again after a lost acknowledgement is.
      await admin('select pg_notify($1, $2)', [CHANNEL, heard.find((n) => n.includes(reply))]);
      // Sent after the copy, so it reaches B after the copy: once it is in, the copy would be too.
      await command('/model');
      await waitUntil(() => watching.commands.includes('model'), 10_000);
      expect(watching.commands).toEqual(['status', 'model']);
    } finally {
      await listener.end();
      await watching.close();
    }
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
    await queueHolds('after LISTEN', [a, b, instances[2]!]);
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
    await queueHolds('after the pool', [a, b, instances[2]!]);
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
    await queueHolds('after the restart', [c, a, b]);
  }, 60_000);

  it('SIGSTOP longer than the lease: the others end its turns; woken, it ends its own streams with the same final event, and no chunk follows', async () => {
    const [a, b, c] = instances as [HarnessProcess, HarnessProcess, HarnessProcess];
    const onA = [stream(a, 'pause one'), stream(a, 'pause two')];
    await untilStreaming(onA);
    await runOn(a, onA);
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
    await queueHolds('after the pause', [a, b, c]);
  }, 60_000);

  it('kill -9 of an instance: the others end its turns with the note once its lease expires, then run what waited', async () => {
    const [a, b, c] = instances as [HarnessProcess, HarnessProcess, HarnessProcess];
    const onA = [stream(a, 'kill one'), stream(a, 'kill two')];
    const onB = stream(b, 'kill three');
    await untilStreaming([...onA, onB]);
    await runOn(a, onA);
    await runOn(b, [onB]);
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
    await queueHolds('after kill -9', [b, c]);
  }, 60_000);

  it("an instance restarted on the same host and port ends its previous run's turns at start-up; a live twin's are left alone", async () => {
    const [, b, c] = instances as [HarnessProcess, HarnessProcess, HarnessProcess];
    // A lease far longer than this test: only the restart can end the old run's turns in time.
    const identity = ['--config', configWith(60_000), '--port', String(await freePort())];
    const first = await spawnInstance(identity);
    extras.push(first);
    const onFirst = stream(first, 'rerun one');
    await untilStreaming([onFirst]);
    await runOn(first, [onFirst]);
    const watching = await subscribe(c.listeningUrl, onFirst.taskId!);
    const queued = stream(b, 'rerun queued', onFirst.taskId);
    await waitUntil(() => queued.taskId !== undefined);

    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    await first.exited;
    const again = await spawnInstance(identity);
    extras.push(again);
    await waitUntil(() => watching.finals.length > 0, 30_000);
    measured['restart on the same host and port: the old turns end after'] =
      `${Date.now() - killedAt} ms from kill -9, ${Date.now() - (again.logs[0]?.time as number)} ms from its first log line`;
    expect(watching.finals[0]).toBe(INTERRUPTED_BY_RESTART);
    const said = await again.logLine((line) => line.msg === 'ended the turns of its previous run');
    expect(said.tasks).toEqual([onFirst.taskId]);
    expect(onFirst.broken).toBe(true);
    await Promise.race([queued.done, sleep(30_000)]);
    expect(queued.finalText).toBe(answerTo('rerun queued'));
    expect(queued.afterFinal).toBe(0);
    noLateChunks([watching]);
    await watching.close();

    // Started on the identity of an instance that is alive: it must not touch that one's turn.
    const running = stream(again, 'rerun twin');
    await untilStreaming([running]);
    await runOn(again, [running]);
    const twin = await spawnInstance([
      '--instance-name',
      again.logs.find((line) => line.msg === 'joined the instances on this database')
        ?.name as string,
    ]);
    extras.push(twin);
    await running.done;
    expect(running.finalText).toBe(answerTo('rerun twin'));
    twin.child.kill('SIGTERM');
    await twin.exited;
    await queueHolds('after a restart', [again, b, c]);
  }, 120_000);

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
      const sentToIt = accepted.filter((each) => each.taskId === taskId).map((each) => each.text);
      expect(task.status.state, `the task of ${JSON.stringify(sentToIt)}`).toBe(
        'TASK_STATE_INPUT_REQUIRED',
      );
      const texts = task.history.map((message: any) => message.parts[0]?.text);
      for (const entry of accepted.filter((each) => each.taskId === taskId)) {
        const ids = task.history.filter((message: any) => message.messageId === entry.messageId);
        expect(ids).toHaveLength(1);
        if (entry.finalText) expect(texts).toContain(entry.finalText);
      }
      for (const burst of bursts.filter((each) => each.taskId === taskId)) {
        for (const text of burst.taken) {
          expect(texts.filter((each: string) => each === text)).toHaveLength(1);
          expect(calls.filter((call) => call === text)).toHaveLength(1);
        }
        for (const text of burst.refused) {
          expect(texts).not.toContain(text);
          expect(calls).not.toContain(text);
        }
      }
    }
    expect(await admin('select * from a2a_harness_turns')).toEqual([]);
  }, 60_000);
});
