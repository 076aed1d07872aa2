/**
 * A command's reply on a cluster: the store decides whether its write tells
 * the other instances (a NOTIFY sent as the write commits) or the relay sends
 * it after the write, when it is too large to ride along. Either way each
 * reply is told once, and a subscriber on another instance gets it once.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { CHANNEL } from '../src/cluster/index.js';

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let instances: HarnessProcess[] = [];
let listener: pg.Client;
const notices: string[] = [];

/** Descriptions long enough that `/help` lists more than a NOTIFY may carry (8000 bytes). */
const LONG_DESCRIPTION = 'Looks over the notes of the day and keeps what matters. '.repeat(5);

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_cluster_replies');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-replies-'));
  mkdirSync(path.join(dataDir, 'commands'));
  for (let i = 0; i < 40; i++) {
    writeFileSync(
      path.join(dataDir, 'commands', `note${i}.md`),
      `---\ndescription: ${LONG_DESCRIPTION}\n---\n\nNote: $ARGUMENTS\n`,
    );
  }
  const config = writeConfig(dataDir, {});
  const args = ['--data', dataDir, '--config', config, '--database-url', database.url];
  instances = await Promise.all([0, 1].map(() => spawnHarness(args)));
  listener = new pg.Client({ connectionString: database.url });
  listener.on('notification', (notice) => notices.push(notice.payload ?? ''));
  await listener.connect();
  await listener.query(`LISTEN ${CHANNEL}`);
}, 120_000);

afterAll(async () => {
  await listener?.end();
  await Promise.all(
    instances.map(async (instance) => {
      instance.child.kill('SIGTERM');
      await instance.exited;
    }),
  );
  await database?.drop();
}, 60_000);

describe('command replies on two instances', () => {
  it('each reply, small or larger than a notification, reaches a subscriber on the other instance exactly once', async () => {
    const [a, b] = instances as [HarnessProcess, HarnessProcess];
    const created = await rpc(a.listeningUrl, 'SendMessage', { message: userText('/status') });
    const taskId = created.body.result.task.id as string;
    const { events: onB } = await rpcStream(b.listeningUrl, 'SubscribeToTask', { id: taskId });
    expect(resultOf(await onB.next()).task.id).toBe(taskId);
    const heard: any[] = [];
    void (async () => {
      for (let raw = await onB.next(); raw !== undefined; raw = await onB.next()) {
        heard.push(resultOf(raw));
      }
    })();

    const replies: string[] = [];
    const sizes: number[] = [];
    for (const text of ['/status', '/help', '/model', '/help', '/status']) {
      const answer = await rpc(a.listeningUrl, 'SendMessage', {
        message: userText(text, { taskId }),
      });
      const reply = answer.body.result.task.status.message;
      replies.push(reply.messageId);
      sizes.push(Buffer.byteLength(JSON.stringify(reply)));
    }
    // Both ways are taken: replies too large to ride on their writes, and small ones.
    expect(Math.max(...sizes)).toBeGreaterThan(8000);
    expect(Math.min(...sizes)).toBeLessThan(4000);

    const idsHeard = () =>
      heard.map((event) => event.statusUpdate?.status?.message?.messageId as string);
    await waitFor(
      async () => replies.every((id) => idsHeard().includes(id)) || undefined,
      'every reply to reach the subscriber on B',
    );
    // Quiet for a moment after the last: a second copy would have come by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await onB.cancel();
    expect(idsHeard()).toEqual(replies);
    // Told once each on the channel: the write's NOTIFY or the relay's, never both.
    const replyNotices = notices.filter((notice) => notice.includes(` reply ${taskId} `));
    expect(replyNotices).toHaveLength(replies.length);
  }, 120_000);
});
