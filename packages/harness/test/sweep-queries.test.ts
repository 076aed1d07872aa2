/**
 * The sweep's queries: which waiting turns it claims, and that it reads
 * indexes, not whole tables. For the latter each query is captured as the
 * code sends it, then explained with sequential scans priced out; a query no
 * index serves is still planned as a sequential scan.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterTables } from '../src/cluster/index.js';
import {
  HarnessTaskStore,
  openDatabase,
  postgresPoolOf,
  PostgresTurnRows,
  TURNS_TABLE,
  UNCLAIMED_AFTER_MS,
  type HarnessDatabase,
} from '../src/store/index.js';
import { freshPostgresDatabase } from 'a2a-testing/databases';

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let opened: HarnessDatabase;
/** The test's own connection, beside the code's pool. */
let client: pg.Client;
const sent: { text: string; values: unknown[] }[] = [];

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_sweep_queries');
  opened = await openDatabase(database.url, [createClusterTables]);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const pool = postgresPoolOf(opened.db)!;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  // Every statement the code sends, with its values, as the server gets it.
  (pool as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const pooled = await connect();
    const query = pooled.query.bind(pooled) as (text: unknown, values?: unknown) => unknown;
    (pooled as { query: unknown }).query = (text: unknown, values?: unknown) => {
      if (typeof text === 'string') sent.push({ text, values: (values as unknown[]) ?? [] });
      return query(text, values);
    };
    return pooled;
  };
}, 60_000);

afterAll(async () => {
  await client?.end();
  await opened?.close();
  await database?.drop();
});

/** The plan of the last statement sent that mentions `table`, with sequential scans priced out. */
async function planOfLast(table: string): Promise<string> {
  const statement = sent.findLast((each) => each.text.includes(table));
  if (!statement) throw new Error(`no statement on ${table} was sent`);
  await client.query('set enable_seqscan = off');
  try {
    const { rows } = await client.query(`explain ${statement.text}`, statement.values);
    return rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.query('reset enable_seqscan');
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

/** A turn row of `taskId`, waiting (no instance) or run by `instance`, queued `agoMs` before now. */
async function turnRow(taskId: string, agoMs: number, instance: string | null = null) {
  await client.query(
    `insert into ${TURNS_TABLE} (task_id, turn_id, owner, tenant, instance, created_at)
     values ($1, gen_random_uuid()::text, 'someone', '', $2, now() - make_interval(secs => $3))`,
    [taskId, instance, agoMs / 1000],
  );
}

describe('the waiting turns the sweep claims', () => {
  // The instance that queued a turn is about to claim it, and runs it where its caller's stream is.
  it('a turn queued just now is left to the instance that queued it; one left waiting longer is claimed', async () => {
    await turnRow('queued-just-now', 0);
    await turnRow('left-waiting', UNCLAIMED_AFTER_MS + 1000);
    expect(await new PostgresTurnRows(opened.db).unclaimedTasks()).toEqual(['left-waiting']);
  });

  it('a task whose turn runs has none to claim, however long its next one waits', async () => {
    await turnRow('running', UNCLAIMED_AFTER_MS + 2000, 'an-instance');
    await turnRow('running', UNCLAIMED_AFTER_MS + 1000);
    expect(await new PostgresTurnRows(opened.db).unclaimedTasks()).not.toContain('running');
  });
});
