/**
 * The sweep's queries read indexes, not whole tables: each one is captured as
 * the code sends it, then explained with sequential scans priced out. A query
 * no index serves is still planned as a sequential scan.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterTables } from '../src/cluster/index.js';
import {
  HarnessTaskStore,
  openDatabase,
  postgresPoolOf,
  PostgresTurnRows,
  type HarnessDatabase,
} from '../src/store/index.js';
import { freshPostgresDatabase } from 'a2a-testing/databases';

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let opened: HarnessDatabase;
const sent: { text: string; values: unknown[] }[] = [];

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_sweep_indexes');
  opened = await openDatabase(database.url, [createClusterTables]);
  const pool = postgresPoolOf(opened.db)!;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  // Every statement the code sends, with its values, as the server gets it.
  (pool as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    const query = client.query.bind(client) as (text: unknown, values?: unknown) => unknown;
    (client as { query: unknown }).query = (text: unknown, values?: unknown) => {
      if (typeof text === 'string') sent.push({ text, values: (values as unknown[]) ?? [] });
      return query(text, values);
    };
    return client;
  };
}, 60_000);

afterAll(async () => {
  await opened?.close();
  await database?.drop();
});

/** The plan of the last statement sent that mentions `table`, with sequential scans priced out. */
async function planOfLast(table: string): Promise<string> {
  const statement = sent.findLast((each) => each.text.includes(table));
  if (!statement) throw new Error(`no statement on ${table} was sent`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query('set enable_seqscan = off');
    const { rows } = await client.query(`explain ${statement.text}`, statement.values);
    return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

describe('the sweep reads indexes', () => {
  it('stranded sub-tasks: tasks by state, not a scan of every task', async () => {
    await new HarnessTaskStore(opened.db).strandedSubtasks(5000);
    const plan = await planOfLast('a2a_harness_tasks');
    expect(plan).toContain('a2a_harness_tasks_state');
    expect(plan).not.toMatch(/Seq Scan/);
  });

  it('instances past their lease: turns by instance, leases by primary key', async () => {
    await new PostgresTurnRows(opened.db).instancesPastLease('me');
    const plan = await planOfLast('a2a_harness_instances');
    expect(plan).not.toMatch(/Seq Scan/);
  });
});
