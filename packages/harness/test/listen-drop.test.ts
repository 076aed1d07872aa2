/**
 * A live instance whose LISTEN connection drops, for longer than it takes to
 * reconnect, is not taken for dead: liveness is its lease, which it renews
 * from its pool. The turn it is running ends with its whole answer, not the
 * "interrupted" note. Its connections are found by their `application_name`.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenApplicationName } from '../src/cluster/connection-names.js';
import { INTERRUPTED_BY_RESTART } from '../src/turns/turn-endings.js';
import { resultOf, rpc, rpcStream, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { processStore, type PostgresProcessStore } from 'a2a-testing/stores';

const textOf = (message: any): string => message?.parts?.[0]?.text ?? '';

let store: PostgresProcessStore | undefined;
let instances: HarnessProcess[] = [];

beforeAll(async () => {
  store = await processStore('postgres', { ownDatabase: 'a2a_listen_drop' });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-listen-drop-'));
  const config = writeConfig(dataDir, { offline: { latencyMs: 50 } });
  const args = ['--data', dataDir, '--config', config, ...store.flags];
  instances = await Promise.all([spawnHarness(args), spawnHarness(args)]);
}, 120_000);

afterAll(async () => {
  await Promise.all(
    instances.map(async (instance) => {
      instance.child.kill('SIGTERM');
      await instance.exited;
    }),
  );
  await store?.drop();
}, 60_000);

/** Ends `instanceId`'s LISTEN connection, if it has one now; true when it had. */
async function dropListenConnection(admin: pg.Client, instanceId: string): Promise<boolean> {
  const { rowCount } = await admin.query(
    `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`,
    [listenApplicationName(instanceId)],
  );
  return (rowCount ?? 0) > 0;
}

describe('a dropped LISTEN connection', () => {
  it('does not cost a live instance its running turn, however long it stays down within the lease', async () => {
    const [a] = instances;
    const instanceId = a!.logs.find((l) => l.msg === 'joined the instances on this database')
      ?.instance as string;
    const said = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ');
    const { events } = await rpcStream(a!.listeningUrl, 'SendStreamingMessage', {
      message: userText(said),
    });
    const taskId = resultOf(await events.next()).task.id;
    expect(resultOf(await events.next()).statusUpdate.status.state).toBe('TASK_STATE_WORKING');

    // Down for 4.5 s, longer than its reconnect backoff: each reconnect is ended at once.
    const admin = new pg.Client({ connectionString: store!.databaseUrl });
    await admin.connect();
    try {
      expect(await dropListenConnection(admin, instanceId)).toBe(true);
      const until = Date.now() + 4500;
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
