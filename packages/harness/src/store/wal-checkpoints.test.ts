import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { WalCheckpoints } from './wal-checkpoints.js';

const open: { database: SqliteDatabase.Database; checkpoints?: WalCheckpoints }[] = [];

function walDatabase() {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'wal-checkpoints-')), 'tasks.db');
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec('create table notes (id integer primary key, body text)');
  const entry: (typeof open)[number] = { database };
  open.push(entry);
  return { file, database, entry };
}

const writeRows = (database: SqliteDatabase.Database, count: number) => {
  const insert = database.prepare('insert into notes (body) values (?)');
  for (let i = 0; i < count; i++) insert.run('x'.repeat(2000));
};

/** Frames in the WAL, and how many of them are already copied into the database file. */
const walState = (database: SqliteDatabase.Database) => {
  // A PASSIVE checkpoint of nothing new reports the WAL's state without copying anything new.
  const [row] = database.pragma('wal_checkpoint(PASSIVE)') as {
    log: number;
    checkpointed: number;
  }[];
  return row!;
};

afterEach(async () => {
  for (const { database, checkpoints } of open.splice(0)) {
    await checkpoints?.stop();
    database.close();
  }
});

describe('WAL checkpoints on a worker thread', () => {
  it('turns off the checkpoints that SQLite would make inside a commit on the event loop', async () => {
    const { file, database, entry } = walDatabase();
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    entry.checkpoints = await WalCheckpoints.start(database, file, { checkpointMs: 60_000 });
    expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  });

  it('copies committed pages from the WAL into the database file off the connection', async () => {
    const { file, database, entry } = walDatabase();
    entry.checkpoints = await WalCheckpoints.start(database, file, { checkpointMs: 60_000 });
    const sizeBefore = statSync(file).size;
    writeRows(database, 3000);
    expect(statSync(file).size).toBe(sizeBefore); // with SQLite's checkpoints off, all is in the WAL

    expect(await entry.checkpoints.checkpointNow()).toBe(1);
    expect(statSync(file).size).toBeGreaterThan(sizeBefore + 3000 * 2000);
    const state = walState(database);
    expect(state.checkpointed).toBe(state.log);
  });

  it('checkpoints on its own timer', async () => {
    const { file, database, entry } = walDatabase();
    entry.checkpoints = await WalCheckpoints.start(database, file, { checkpointMs: 20 });
    const sizeBefore = statSync(file).size;
    writeRows(database, 500);
    await expect.poll(() => statSync(file).size, { timeout: 10_000 }).toBeGreaterThan(sizeBefore);
  });

  it('syncs the WAL on its own between checkpoints, copying nothing', async () => {
    const { file, database, entry } = walDatabase();
    entry.checkpoints = await WalCheckpoints.start(database, file, {
      checkpointMs: 60_000,
      syncMs: 20,
    });
    const sizeBefore = statSync(file).size;
    writeRows(database, 500);
    const checkpoints = entry.checkpoints;
    await expect
      .poll(async () => (await checkpoints.counts()).walSyncs, { timeout: 10_000 })
      .toBeGreaterThan(1);
    expect((await checkpoints.counts()).checkpoints).toBe(0);
    expect(statSync(file).size).toBe(sizeBefore);
  });

  it('syncs the WAL only when it checkpoints, when those come as often', async () => {
    const { file, database, entry } = walDatabase();
    entry.checkpoints = await WalCheckpoints.start(database, file, {
      checkpointMs: 20,
      syncMs: 20,
    });
    writeRows(database, 10);
    const checkpoints = entry.checkpoints;
    await expect
      .poll(async () => (await checkpoints.counts()).checkpoints, { timeout: 10_000 })
      .toBeGreaterThan(2);
    expect((await checkpoints.counts()).walSyncs).toBe(0);
  });

  it('leaves every committed row readable after the worker stops and the file is reopened', async () => {
    const { file, database, entry } = walDatabase();
    entry.checkpoints = await WalCheckpoints.start(database, file, { checkpointMs: 60_000 });
    writeRows(database, 1200);
    await entry.checkpoints.stop();
    entry.checkpoints = undefined;
    const reopened = new SqliteDatabase(file, { readonly: true });
    expect(reopened.prepare('select count(*) from notes').pluck().get()).toBe(1200);
    reopened.close();
  });

  it("checkpoints every file the process opens on one thread, each on the file's own timer", async () => {
    const often = walDatabase();
    const seldom = walDatabase();
    often.entry.checkpoints = await WalCheckpoints.start(often.database, often.file, {
      checkpointMs: 20,
    });
    seldom.entry.checkpoints = await WalCheckpoints.start(seldom.database, seldom.file, {
      checkpointMs: 60_000,
    });
    const seldomSize = statSync(seldom.file).size;
    writeRows(often.database, 10);
    writeRows(seldom.database, 500);
    const oftenCheckpoints = often.entry.checkpoints;
    await expect
      .poll(async () => (await oftenCheckpoints.counts()).checkpoints, { timeout: 10_000 })
      .toBeGreaterThan(2);
    const [oftenWork, seldomWork] = await Promise.all([
      oftenCheckpoints.counts(),
      seldom.entry.checkpoints.counts(),
    ]);
    expect(seldomWork.checkpoints).toBe(0);
    expect(statSync(seldom.file).size).toBe(seldomSize);
    expect(oftenWork.threadId).toBeGreaterThan(0);
    expect(seldomWork.threadId).toBe(oftenWork.threadId);
  });

  it('keeps its thread for the next file once a file stops, and checkpoints that one', async () => {
    const first = walDatabase();
    const checkpoints = await WalCheckpoints.start(first.database, first.file, {
      checkpointMs: 60_000,
    });
    const { threadId } = await checkpoints.counts();
    expect(threadId).toBeGreaterThan(0);
    await checkpoints.stop();
    const next = walDatabase();
    next.entry.checkpoints = await WalCheckpoints.start(next.database, next.file, {
      checkpointMs: 20,
    });
    const sizeBefore = statSync(next.file).size;
    writeRows(next.database, 500);
    await expect
      .poll(() => statSync(next.file).size, { timeout: 10_000 })
      .toBeGreaterThan(sizeBefore);
    expect((await next.entry.checkpoints.counts()).threadId).toBe(threadId);
  });
});
