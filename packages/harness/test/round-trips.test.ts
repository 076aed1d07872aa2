/**
 * What commands and turns cost PostgreSQL, counted on the wire: a proxy in
 * front of the database counts the round trips (each query the harness then
 * waits for, and each NOTIFY). docs/benchmarks.md and docs/extension.md quote
 * these counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { resultOf, rpc, rpcStream, userText, type SseReader } from 'a2a-testing/http';
import { countRoundTrips, type RoundTripCounter } from 'a2a-testing/round-trips';

/** One instance on its own database, behind a counting proxy. */
interface Counted {
  database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  counter: RoundTripCounter;
  harness: TestHarness;
}

async function counted(name: string, wordMs: number): Promise<Counted> {
  const database = await freshPostgresDatabase(name);
  const counter = await countRoundTrips(database.url);
  const harness = await startHarness({
    databaseUrl: counter.url,
    config: { offline: { latencyMs: wordMs } },
  });
  return { database, counter, harness };
}

async function close(setup: Counted | undefined): Promise<void> {
  await setup?.harness.stop();
  await setup?.counter.close();
  await setup?.database.drop();
}

/** Resolves once no round trip has started for `quietMs`: what a request set off has been sent. */
async function settled(counter: RoundTripCounter, quietMs = 150): Promise<void> {
  for (let last = -1; last !== counter.count();) {
    last = counter.count();
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/**
 * The fewest round trips `send` took over a few tries, counted until the
 * database goes quiet (a NOTIFY sent after the answer counts too). The
 * instance's sweep (a few queries a second) may fall inside one try, never
 * inside all of them. Each try's `send` is given what `prepare` made, and
 * `cleanUp` runs after the count.
 */
async function roundTripsOf<T>(
  { counter }: Counted,
  send: (prepared: T) => Promise<unknown>,
  options: {
    prepare?: () => Promise<T>;
    cleanUp?: (prepared: T) => Promise<unknown>;
    tries?: number;
    /** Which round trips count, by their statement: all by default. */
    counts?: (statement: string) => boolean;
  } = {},
): Promise<number> {
  const { prepare, cleanUp, tries = 5, counts = () => true } = options;
  let fewest = Infinity;
  for (let i = 0; i < tries; i++) {
    const prepared = (await prepare?.()) as T;
    await settled(counter);
    const before = counter.count();
    const from = counter.trips.length;
    await send(prepared);
    await settled(counter);
    expect(counter.trips.length - from).toBe(counter.count() - before);
    const seen = counter.trips.slice(from).filter(counts);
    if (seen.length < fewest) fewest = seen.length;
    if (process.env.A2A_SHOW_ROUND_TRIPS) console.log(seen.length, seen);
    await cleanUp?.(prepared);
  }
  return fewest;
}

/**
 * A turn's own writes and reads: not the NOTIFYs that carry its streamed
 * words to other instances (as many as the model's chunks), nor the sweep's
 * queries that happen to fall in the count.
 */
const turnWrite = (statement: string) => !BACKGROUND.some((pattern) => pattern.test(statement));

const BACKGROUND = [
  /pg_notify/,
  // The sweep: instances past their lease, waiting turns, leases, tasks left working.
  /select distinct t\.instance/,
  /select distinct "waiting"/,
  /a2a_harness_instances/,
  /where state in \(/,
];

async function newTask({ harness }: Counted, text = '/help'): Promise<string> {
  const created = await rpc(harness.url, 'SendMessage', { message: userText(text) });
  return created.body.result.task.id as string;
}

describe('round trips to PostgreSQL, counted on the wire', () => {
  let setup: Counted;
  beforeAll(async () => {
    setup = await counted('a2a_trips', 0);
  }, 60_000);
  afterAll(() => close(setup));

  it('a command that creates its task: one', async () => {
    const trips = await roundTripsOf(setup, () =>
      rpc(setup.harness.url, 'SendMessage', { message: userText('/help') }),
    );
    expect(trips).toBe(1);
  });

  it('a command on an existing task: two (the retry check with the head, then the write, which notifies the other instances as it commits)', async () => {
    const taskId = await newTask(setup);
    const trips = await roundTripsOf(setup, () =>
      rpc(setup.harness.url, 'SendMessage', { message: userText('/help', { taskId }) }),
    );
    expect(trips).toBe(2);
  });

  /**
   * A message's round trips, its turn's ending included; sent on a task that
   * the message `onTask` creates first, when given. The sweep's queries are
   * left out of the count, so fewer tries do.
   */
  async function messageTrips(text: string, onTask?: string): Promise<number> {
    const taskId = onTask === undefined ? undefined : await newTask(setup, onTask);
    return roundTripsOf(
      setup,
      () => rpc(setup.harness.url, 'SendMessage', { message: userText(text, { taskId }) }),
      { counts: turnWrite, tries: 3 },
    );
  }

  it("a turn that creates its task, from the message to its ending: 9 (the task with its turn's row 1, the claim 1, the head and history reads 2, the ending 1: one call from the head the turn read, the answer 1, the row's removal 1, the next claim 1, the answer's task read 1)", async () => {
    expect(await messageTrips('hello')).toBe(9);
  });

  it("a turn on an existing task, from the message to its ending: 11 (the retry check with the head and the running turn read 2, its queueing 1: one call from that head, then as a new task's from the claim on)", async () => {
    expect(await messageTrips('hello', '/help')).toBe(11);
  });

  it("/fork of a task with history: 5 (the retry check, the history read, the command's quota check, then the head read and one call: the copy under the owner's lock, the quota checked again, the reply)", async () => {
    expect(await messageTrips('/fork', 'hello')).toBe(5);
  });

  it("/spawn: a sub-task, and its turn to its ending: 12 (the retry check, the reply with the sub-task 1, then the sub-task's message as on an existing task)", async () => {
    expect(await messageTrips('/spawn hi', '/help')).toBe(12);
  });
});

/**
 * Long enough between two words that a count (the database quiet for 150 ms,
 * the request, quiet again) falls between them, far from the turn's end: a
 * lone instance's words send nothing to the database, so this need not be long.
 */
const SLOW_WORD_MS = 700;

interface RunningTurn {
  taskId: string;
  stream: SseReader;
}

describe('round trips of a running turn, counted on the wire', () => {
  let setup: Counted;
  beforeAll(async () => {
    setup = await counted('a2a_trips_slow', SLOW_WORD_MS);
  }, 60_000);
  afterAll(() => close(setup));

  /** A task whose turn is streaming its answer, its first word seen, far from its end. */
  async function runningTurn(): Promise<RunningTurn> {
    const { events: stream } = await rpcStream(setup.harness.url, 'SendStreamingMessage', {
      message: userText('hello'),
    });
    const taskId = resultOf(await stream.next()).task.id as string;
    while (!resultOf(await stream.next()).artifactUpdate);
    return { taskId, stream };
  }

  const drain = (turn: RunningTurn) => turn.stream.rest();
  const cancel = async (turn: RunningTurn) => {
    await rpc(setup.harness.url, 'CancelTask', { id: turn.taskId });
    await drain(turn);
  };

  it("a message queued behind a running turn: 3 (the retry check with the head, the running turn read, then one call from that head that stores the message with its turn's row)", async () => {
    const trips = await roundTripsOf(
      setup,
      (turn) =>
        rpc(setup.harness.url, 'SendMessage', {
          message: userText('later', { taskId: turn.taskId }),
          configuration: { returnImmediately: true },
        }),
      { prepare: runningTurn, cleanUp: cancel, tries: 3, counts: turnWrite },
    );
    expect(trips).toBe(3);
  });

  it("/stop of a running turn, its ending included: 8 (the retry check and two reads of the turn rows, the turn's ending 1: one call from the head the turn saw last, the command's reply 1, the answer so far 1, the row's removal 1, the next claim 1)", async () => {
    const trips = await roundTripsOf(
      setup,
      (turn) =>
        rpc(setup.harness.url, 'SendMessage', {
          message: userText('/stop', { taskId: turn.taskId }),
        }),
      { prepare: runningTurn, cleanUp: drain, tries: 3, counts: turnWrite },
    );
    expect(trips).toBe(8);
  });

  it("CancelTask of a running turn, its ending included: 5 (the owner's read with the head, one call from that head that writes the canceled state and removes the turn rows, the task and history reads 2, the next claim 1)", async () => {
    const trips = await roundTripsOf(
      setup,
      (turn) => rpc(setup.harness.url, 'CancelTask', { id: turn.taskId }),
      { prepare: runningTurn, cleanUp: drain, tries: 3, counts: turnWrite },
    );
    expect(trips).toBe(5);
  });
});
