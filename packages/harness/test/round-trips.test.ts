/**
 * What a command costs PostgreSQL, counted on the wire: a proxy in front of
 * the database counts the round trips (each query the harness then waits
 * for, and each NOTIFY). docs/benchmarks.md and docs/extension.md quote these
 * counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';
import { countRoundTrips, type RoundTripCounter } from 'a2a-testing/round-trips';

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let counter: RoundTripCounter;
let harness: TestHarness;

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_trips');
  counter = await countRoundTrips(database.url);
  harness = await startHarness({ databaseUrl: counter.url });
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  await counter?.close();
  await database?.drop();
});

/** Resolves once no round trip has started for `quietMs`: what a request set off has been sent. */
async function settled(quietMs = 150): Promise<void> {
  for (let last = -1; last !== counter.count();) {
    last = counter.count();
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
}

/**
 * The fewest round trips `send` took over a few tries, counted until the
 * database goes quiet (a NOTIFY sent after the answer counts too). The
 * instance's sweep (a few queries a second) may fall inside one try, never
 * inside all of them.
 */
async function roundTripsOf(send: () => Promise<unknown>, tries = 5): Promise<number> {
  let fewest = Infinity;
  for (let i = 0; i < tries; i++) {
    await settled();
    const before = counter.count();
    const from = counter.statements.length;
    await send();
    await settled();
    const trips = counter.count() - before;
    if (trips < fewest) fewest = trips;
    if (process.env.A2A_SHOW_ROUND_TRIPS) console.log(trips, counter.statements.slice(from));
  }
  return fewest;
}

describe('round trips to PostgreSQL, counted on the wire', () => {
  it('a command that creates its task: one', async () => {
    const trips = await roundTripsOf(() =>
      rpc(harness.url, 'SendMessage', { message: userText('/help') }),
    );
    expect(trips).toBe(1);
  });

  it('a command on an existing task: two (the retry check with the head, then the write, which notifies the other instances as it commits)', async () => {
    const created = await rpc(harness.url, 'SendMessage', { message: userText('/help') });
    const taskId = created.body.result.task.id as string;
    const trips = await roundTripsOf(() =>
      rpc(harness.url, 'SendMessage', { message: userText('/help', { taskId }) }),
    );
    expect(trips).toBe(2);
  });
});
