/**
 * Leases of instances that died holding no turns: no takeover ever touches
 * them, so the sweep removes them once expired, and never a lease that runs.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { waitFor } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { createClusterTables } from '../src/cluster/index.js';
import {
  LEASES_TABLE,
  openDatabase,
  PostgresTurnRows,
  TURNS_TABLE,
  type HarnessDatabase,
} from '../src/store/index.js';

/**
 * Short, so a dead instance's lease lapses quickly, but not the shortest the
 * config takes: on a busy machine a 1 s lease of a live instance lapsed before
 * its renewal, and the other's sweep rightly removed it.
 */
const LEASE_MS = 3000;

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let client: pg.Client;
const started: HarnessProcess[] = [];

const idOf = (instance: HarnessProcess) =>
  instance.logs.find((line) => line.msg === 'joined the instances on this database')
    ?.instance as string;

async function leases(): Promise<string[]> {
  const { rows } = await client.query(`select instance from ${LEASES_TABLE} order by instance`);
  return rows.map((row: { instance: string }) => row.instance);
}

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_stale_leases');
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await Promise.all(
    started
      .filter((instance) => instance.child.exitCode === null && !instance.child.killed)
      .map(async (instance) => {
        instance.child.kill('SIGTERM');
        await instance.exited;
      }),
  );
  await client?.end();
  await database?.drop();
}, 60_000);

describe('stale lease rows', () => {
  it('only expired leases that no turn names go: running leases and those of instances with turns stay', async () => {
    const opened: HarnessDatabase = await openDatabase(database.url, [createClusterTables]);
    try {
      await client.query(`delete from ${LEASES_TABLE}`);
      await client.query(
        `insert into ${LEASES_TABLE} (instance, expires_at) values
           ('running', now() + interval '10 seconds'),
           ('running-with-turn', now() + interval '10 seconds'),
           ('lapsed', now() - interval '1 second'),
           ('lapsed-with-turn', now() - interval '1 second')`,
      );
      await client.query(
        `insert into ${TURNS_TABLE} (task_id, turn_id, owner, tenant, instance) values
           ('t1', 'u1', 'o', '', 'running-with-turn'),
           ('t2', 'u2', 'o', '', 'lapsed-with-turn')`,
      );

      expect(await new PostgresTurnRows(opened.db).removeIdleExpiredLeases()).toEqual(['lapsed']);
      // The takeover ends the turns of an instance with turns, then removes its lease.
      expect(await leases()).toEqual(['lapsed-with-turn', 'running', 'running-with-turn']);
    } finally {
      await client.query(`delete from ${TURNS_TABLE}`);
      await opened.close();
    }
  });

  it('the lease of an instance killed while it held no turns is removed by a survivor’s sweep', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-leases-'));
    const config = writeConfig(dataDir, { cluster: { leaseMs: LEASE_MS } });
    const args = ['--data', dataDir, '--config', config, '--database-url', database.url];
    const [dead, survivor] = await Promise.all([spawnHarness(args), spawnHarness(args)]);
    started.push(dead!, survivor!);
    // Two instances starting at once on a busy machine may take a while to join.
    await waitFor(
      async () => (await leases()).length === 2 || undefined,
      'both instances to hold leases',
      2400,
    );

    dead!.child.kill('SIGKILL');
    await dead!.exited;

    // Its lease lapses after LEASE_MS; the survivor's sweep looks every few seconds.
    await waitFor(
      async () => !(await leases()).includes(idOf(dead!)) || undefined,
      'the dead instance’s lease to be removed',
      2400,
    );
    // The survivor's own lease, renewed all along, stays.
    expect(await leases()).toEqual([idOf(survivor!)]);
  }, 90_000);
});
