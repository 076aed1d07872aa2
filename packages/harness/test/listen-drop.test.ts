/**
 * A live instance whose LISTEN connection drops for a moment is not taken for
 * dead: another instance's sweep finds its lock free, but takes its turns over
 * only once the lock has stayed free for `TAKEOVER_GRACE_MS`; the turn it is
 * running ends with its whole answer, not the "interrupted" note.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAKEOVER_GRACE_MS } from '../src/cluster/cluster-turns.js';
import { LOCK_CLASS } from '../src/store/advisory-locks.js';
import { INTERRUPTED_BY_RESTART } from '../src/turns/turn-endings.js';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { resultOf, rpc, rpcStream, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';

const textOf = (message: any): string => message?.parts?.[0]?.text ?? '';

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let instances: HarnessProcess[] = [];

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_listen_drop');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-listen-drop-'));
  const config = writeConfig(dataDir, { offline: { latencyMs: 50 } });
  const args = ['--data', dataDir, '--config', config, '--database-url', database.url];
  instances = await Promise.all([spawnHarness(args), spawnHarness(args)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(
    instances.map(async (instance) => {
      instance.child.kill('SIGTERM');
      await instance.exited;
    }),
  );
  await database?.drop();
}, 60_000);

/** Ends the connection that holds `instanceId`'s lock (its LISTEN connection), if it has one now. */
async function dropListenConnection(admin: pg.Client, instanceId: string): Promise<void> {
  await admin.query(
    `select pg_terminate_backend(pid) from pg_locks
      where locktype = 'advisory' and granted and classid = $1
        and objid::bigint = (hashtext($2)::bigint + 4294967296) % 4294967296`,
    [LOCK_CLASS.instance, instanceId],
  );
}

describe('a dropped LISTEN connection', () => {
  it('does not cost a live instance its running turn when it comes back within the grace period', async () => {
    const [a] = instances;
    const instanceId = a!.logs.find((l) => l.msg === 'joined the instances on this database')
      ?.instance as string;
    const said = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ');
    const { events } = await rpcStream(a!.listeningUrl, 'SendStreamingMessage', {
      message: userText(said),
    });
    const taskId = resultOf(await events.next()).task.id;
    expect(resultOf(await events.next()).statusUpdate.status.state).toBe('TASK_STATE_WORKING');

    // Its lock is kept free for most of half the grace period: each reconnect is ended at once.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const until = Date.now() + TAKEOVER_GRACE_MS / 2;
      while (Date.now() < until) {
        await dropListenConnection(admin, instanceId);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await admin.end();
    }

    const rest = (await events.rest()).map(resultOf);
    const final = rest.at(-1).statusUpdate.status.message;
    expect(textOf(final)).not.toBe(INTERRUPTED_BY_RESTART);
    expect(textOf(final)).toContain(`You said: ${said}`);
    const stored = (await rpc(instances[1]!.listeningUrl, 'GetTask', { id: taskId })).body.result;
    const answers = stored.history.filter((m: any) => m.role === 'ROLE_AGENT').map(textOf);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toContain(`You said: ${said}`);
  }, 60_000);
});
