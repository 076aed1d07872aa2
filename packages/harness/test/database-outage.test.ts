/**
 * An instance rides out its database: a PostgreSQL connection ended by the
 * server, a server that is down for a while, and a server restart under load
 * are outages, not the end of the process. This file has a PostgreSQL cluster
 * of its own, because it stops and restarts it.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { startThrowawayPostgres, type ThrowawayPostgres } from 'a2a-testing/throwaway-postgres';

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
  await postgres?.stop();
}, 60_000);

/** The turn rows of `taskId`, and which instance each names. */
async function turnRows(taskId: string): Promise<{ turn_id: string; instance: string | null }[]> {
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    const result = await admin.query(
      'select turn_id, instance from a2a_harness_turns where task_id = $1',
      [taskId],
    );
    return result.rows;
  } finally {
    await admin.end();
  }
}

/** Settles with `promise`, or fails the test after `ms` instead of hanging it. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: still waiting`)), ms),
    ),
  ]);
}

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
    await postgres.halt();
    try {
      await waitFor(async () => ((await readyz()) === 503 ? true : undefined), '/readyz 503');
      const { status, body } = await rpc(harness.listeningUrl, 'SendMessage', {
        message: userText('/help'),
      });
      expect(status).toBe(200);
      expect(body.error?.message).toMatch(/database/i);
      expect(alive()).toBe(true);
    } finally {
      await postgres.resume();
    }
    await servingAgain();
  });

  it('keeps running through `pg_ctl restart -m fast` under load, and serves again by itself', async () => {
    const load = Array.from({ length: 30 }, () => help().catch(() => undefined));
    await postgres.restart();
    await Promise.all(load);
    expect(alive()).toBe(true);
    await servingAgain();
  });

  it('a turn that ends while the server is down has its ending written when it is back; the task does not stay WORKING', async () => {
    const said = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const { events } = await rpcStream(harness.listeningUrl, 'SendStreamingMessage', {
      message: userText(said),
    });
    const task = (await events.next()).result.task;
    // The model is streaming: everything the turn reads before it is read.
    while (!(await events.next()).result.artifactUpdate);
    await postgres.halt();
    // The answer (200 words at 10 ms) ends while the server is down: its ending waits.
    await harness.logLine(
      (line) =>
        line.msg === "database unreachable: the turn's ending is written when it is back" &&
        line.taskId === task.id,
    );
    await postgres.resume();
    const rest = await within(events.rest(), 20_000, 'the final event');
    const final = rest.at(-1).result.statusUpdate;
    expect(final.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(final.status.message.parts[0].text).toContain(`You said: ${said}`);
    await servingAgain();
    const stored = (await rpc(harness.listeningUrl, 'GetTask', { id: task.id })).body.result;
    expect(stored.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(stored.history.at(-1).parts[0].text).toContain(`You said: ${said}`);
    await waitFor(
      async () => ((await turnRows(task.id)).length === 0 ? true : undefined),
      'no row',
    );
    // The task takes its next message.
    const next = await within(
      rpc(harness.listeningUrl, 'SendMessage', { message: userText('again', { taskId: task.id }) }),
      20_000,
      'the next message',
    );
    expect(next.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });
});
