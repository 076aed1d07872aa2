/**
 * The sweep claims waiting turns that nobody runs, which their last runner
 * left when it died between two turns. A turn queued a moment ago is not one
 * of them: the instance that queued it is about to claim it, and runs it
 * where its caller's stream is.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { createClusterTables } from '../src/cluster/index.js';
import {
  openDatabase,
  PostgresTurnRows,
  TURNS_TABLE,
  UNCLAIMED_AFTER_MS,
  type HarnessDatabase,
} from '../src/store/index.js';

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let opened: HarnessDatabase;
let client: pg.Client;

/** A turn row of `taskId`, waiting (no instance) or run by `instance`, queued `agoMs` before now. */
async function turnRow(taskId: string, agoMs: number, instance: string | null = null) {
  await client.query(
    `insert into ${TURNS_TABLE} (task_id, turn_id, owner, tenant, instance, created_at)
     values ($1, gen_random_uuid()::text, 'someone', '', $2, now() - make_interval(secs => $3))`,
    [taskId, instance, agoMs / 1000],
  );
}

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_unclaimed_turns');
  opened = await openDatabase(database.url, [createClusterTables]);
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await opened?.close();
  await database?.drop();
});

describe('waiting turns the sweep claims', () => {
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
