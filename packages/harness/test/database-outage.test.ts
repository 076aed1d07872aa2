/**
 * An instance rides out its database: a PostgreSQL connection ended by the
 * server, a server that is down for a while, and a server restart under load
 * are outages, not the end of the process. This file has a PostgreSQL cluster
 * of its own, because it stops and restarts it.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, rpcStream, userText, waitFor } from './support/http.js';
import { spawnHarness, writeConfig, type HarnessProcess } from './support/process.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from './support/throwaway-postgres.js';

let postgres: ThrowawayPostgres;
let harness: HarnessProcess;

const alive = () => harness.child.exitCode === null && harness.child.signalCode === null;
const readyz = async () => (await fetch(`${harness.listeningUrl}/readyz`)).status;

/** Ends every connection the harness holds, from the server's side. */
async function terminateHarnessConnections(): Promise<number> {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    const result = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    return result.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

async function help(): Promise<string | undefined> {
  const { body } = await rpc(harness.listeningUrl, 'SendMessage', { message: userText('/help') });
  return body.result?.task?.status?.message?.parts?.[0]?.text;
}

/** Waits until the instance is ready again and answers `/help`. */
async function servingAgain(): Promise<void> {
  await waitFor(async () => ((await readyz()) === 200 ? true : undefined), 'ready again', 800);
  expect(await help()).toContain('/help');
}

beforeAll(async () => {
  postgres = await startThrowawayPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-outage-'));
  const config = writeConfig(dataDir, { offline: { latencyMs: 10 } });
  harness = await spawnHarness([
    '--data',
    dataDir,
    '--config',
    config,
    '--database-url',
    postgres.url,
  ]);
}, 120_000);

afterAll(async () => {
  if (harness && alive()) {
    harness.child.kill('SIGTERM');
    await harness.exited;
  }
  postgres?.stop();
}, 60_000);

describe('a harness whose PostgreSQL goes away', () => {
  it('keeps running when the server ends its idle pool connections and its LISTEN connection', async () => {
    // Fill the pool with idle connections first.
    await Promise.all(Array.from({ length: 8 }, () => help()));
    expect(await terminateHarnessConnections()).toBeGreaterThan(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(alive()).toBe(true);
    await servingAgain();
  });

  it('keeps running when connections are ended while requests and a turn hold them', async () => {
    const { events } = await rpcStream(harness.listeningUrl, 'SendStreamingMessage', {
      message: userText(Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ')),
    });
    await events.next();
    const load = Array.from({ length: 20 }, () => help().catch(() => undefined));
    for (let round = 0; round < 5; round++) {
      await terminateHarnessConnections();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(load);
    await events.rest().catch(() => undefined);
    expect(alive()).toBe(true);
    await servingAgain();
  });

  it('while the server is down: /readyz is 503 and a request gets a prompt, clear error; then it serves again by itself', async () => {
    postgres.halt();
    try {
      await waitFor(async () => ((await readyz()) === 503 ? true : undefined), '/readyz 503');
      const { status, body } = await rpc(harness.listeningUrl, 'SendMessage', {
        message: userText('/help'),
      });
      expect(status).toBe(200);
      expect(body.error?.message).toMatch(/database/i);
      expect(alive()).toBe(true);
    } finally {
      postgres.resume();
    }
    await servingAgain();
  });

  it('keeps running through `pg_ctl restart -m fast` under load, and serves again by itself', async () => {
    const load = Array.from({ length: 30 }, () => help().catch(() => undefined));
    postgres.restart();
    await Promise.all(load);
    expect(alive()).toBe(true);
    await servingAgain();
  });
});
