/**
 * A WAL starts over from its beginning only when a commit begins with every
 * frame already copied into the database file. Checkpoints on a worker thread
 * copy while commits keep coming, so under a steady stream of commands that
 * moment never came and the WAL grew without end (1.5 GB over 120,000 new
 * tasks, measured). Once the WAL is long, the checkpoint worker asks for a
 * moment without writes, copies the rest, and the next commit starts it over.
 */
import { closeSync, mkdtempSync, openSync, readSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TaskState, type Task } from '@a2a-js/sdk';
import { AGENT, newMessage, textPart, USER } from 'a2a-commands';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openDatabase,
  sqliteConnectionOf,
  walCheckpointsOf,
  type HarnessDatabase,
} from './database.js';
import { GroupCommit } from './group-commit.js';
import { HarnessTaskStore } from './harness-task-store.js';
import { KEPT_WAL_RESTARTS } from './wal-checkpoints.js';
import { ownerContext } from './owner.js';

let database: HarnessDatabase | undefined;
afterEach(() => database?.close());

const MIB = 1024 * 1024;

/**
 * The WAL's checkpoint sequence, from its header: SQLite adds one each time
 * the WAL starts over from its beginning.
 */
function walStarts(file: string): number {
  const header = Buffer.alloc(16);
  const fd = openSync(`${file}-wal`, 'r');
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(12);
}

describe('the WAL under a steady stream of commits', () => {
  it('starts over once it is long, its file cut back only past the size it reuses', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-wal-restarts-')), 'tasks.db');
    database = await openDatabase(`sqlite:${file}`, [], { checkpointMs: 10, restartBytes: MIB });
    const raw = sqliteConnectionOf(database.db)!;
    raw.exec('create table notes (id integer primary key, body text)');
    const commits = new GroupCommit(raw, (run) =>
      database!.db.connection().execute(async () => run()),
    );
    walCheckpointsOf(database.db)!.holdWritesWith((run) => commits.quiet(run));
    const insert = raw.prepare('insert into notes (body) values (?)');
    const body = 'x'.repeat(3000);

    let lastWal = 0;
    let cutBack = 0;
    let smallestCut = Infinity;
    const firstStart = walStarts(file);
    const written = 80 * MIB;
    for (let bytes = 0; bytes < written; bytes += 8 * body.length) {
      // As a busy server's commands: a group of writes at each turn of the loop.
      await Promise.all(Array.from({ length: 8 }, () => commits.write(() => insert.run(body))));
      const wal = statSync(`${file}-wal`).size;
      if (wal < lastWal) {
        cutBack += 1;
        smallestCut = Math.min(smallestCut, wal);
      }
      lastWal = wal;
    }

    expect(raw.prepare('select count(*) from notes').pluck().get()).toBeGreaterThan(26_000);
    // Without the hold the WAL never starts over: its file only grows, past all
    // that was written.
    expect(walStarts(file)).toBeGreaterThan(firstStart);
    // A file that grew long is cut back, but no further than the size a steady
    // stream reuses: a file cut to `restartBytes` grew again, and its appends
    // waited on the thread's syncs. How far it grows between two starts depends
    // on how busy the machine is (30 MB in a CI run, 115 MB beside a load of 34).
    if (cutBack > 0) expect(smallestCut).toBeGreaterThanOrEqual(KEPT_WAL_RESTARTS * MIB);
  });

  it('the harness store asks for it: commands that start tasks start the WAL over too', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'a2a-wal-restarts-')), 'tasks.db');
    database = await openDatabase(`sqlite:${file}`, [], { checkpointMs: 10, restartBytes: MIB });
    const store = new HarnessTaskStore(database.db);
    const context = ownerContext('anonymous', '');
    const task = (): Task => {
      const id = store.newId();
      const contextId = store.newId();
      const reply = newMessage({
        role: AGENT,
        parts: [textPart('x'.repeat(3000))],
        taskId: id,
        contextId,
      });
      return {
        id,
        contextId,
        status: {
          state: TaskState.TASK_STATE_INPUT_REQUIRED,
          message: reply,
          timestamp: undefined,
        },
        history: [
          newMessage({ role: USER, parts: [textPart('/help')], taskId: id, contextId }),
          reply,
        ],
        artifacts: [],
        metadata: {},
      };
    };

    const firstStart = walStarts(file);
    for (let round = 0; round < 400; round++) {
      await Promise.all(Array.from({ length: 8 }, () => store.create(task(), context)));
    }

    const stored = sqliteConnectionOf(database.db)!
      .prepare('select count(*) from a2a_harness_tasks')
      .pluck();
    expect(stored.get()).toBe(3200);
    expect(walStarts(file)).toBeGreaterThan(firstStart);
  });
});
