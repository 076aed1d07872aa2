import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/**
 * How often the worker copies the WAL back into the database file. Each copy
 * syncs the WAL and then the database file; a hot page changed by many commits
 * in between is copied once.
 */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * How often the WAL is synced between copies. With `synchronous = NORMAL` a
 * commit is not synced by itself: this bounds what a power loss can take back.
 */
export const WAL_SYNC_INTERVAL_MS = 200;

/** How long the WAL may grow before the checkpoints ask for a moment without writes. */
export const WAL_RESTART_BYTES = 64 * 1024 * 1024;

/** SQLite's own default, restored if the worker cannot run. */
const AUTOCHECKPOINT_PAGES = 1000;

// Inline, so that it runs the same from TypeScript sources (tsx, vitest) and from the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const fs = require('node:fs');
const database = new Database(workerData.file, { fileMustExist: true });
database.pragma('busy_timeout = 5000');
let checkpoints = 0;
let walSyncs = 0;
let walFd;
const checkpoint = () => {
  const [state] = database.pragma('wal_checkpoint(PASSIVE)');
  checkpoints += 1;
  return state;
};
const syncWal = () => {
  try {
    // Opened for writing, though it never writes: Windows syncs only a handle that may write.
    walFd ??= fs.openSync(workerData.file + '-wal', 'r+');
    fs.fsyncSync(walFd);
    walSyncs += 1;
  } catch {
    // No WAL yet, or it cannot be opened: the next checkpoint syncs it.
  }
};
const timers = [
  setInterval(() => {
    const { log } = checkpoint();
    if (log >= workerData.restartFrames) parentPort.postMessage({ long: log });
  }, workerData.checkpointMs),
];
if (workerData.syncMs < workerData.checkpointMs) timers.push(setInterval(syncWal, workerData.syncMs));
parentPort.on('message', (message) => {
  if (message === 'checkpoint' || message === 'counts') {
    if (message === 'checkpoint') checkpoint();
    parentPort.postMessage({ answers: message, checkpoints, walSyncs });
  } else if (message === 'stop') {
    for (const timer of timers) clearInterval(timer);
    if (walFd !== undefined) fs.closeSync(walFd);
    database.close();
    parentPort.close();
  }
});
parentPort.postMessage('ready');
`;

/** When the worker copies and syncs; each left out takes its default above. */
export interface WalTiming {
  checkpointMs?: number;
  syncMs?: number;
  /** How long the WAL may grow before writes are held for it to start over. */
  restartBytes?: number;
}

/** What the worker has done so far. */
export interface WalWork {
  checkpoints: number;
  walSyncs: number;
}

/**
 * WAL checkpoints on a worker thread. A checkpoint copies the WAL back into the
 * database file and syncs it: left to SQLite (every 1,000 pages, inside
 * whichever commit crosses the line) that sync blocked the event loop, about a
 * third of a command's store time on the 2-core bench machine. The commits stay
 * on the one connection and as durable as before (WAL, synchronous = NORMAL);
 * only the copying moves.
 */
export class WalCheckpoints {
  private readonly exited: Promise<void>;
  private holdWrites?: (run: () => Promise<void>) => Promise<void>;
  private holding = false;

  private constructor(
    private readonly worker: Worker,
    private readonly database: SqliteDatabase.Database,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
  }

  /** Starts the worker for `file`, and turns the connection's own checkpoints off once it runs. */
  static async start(
    database: SqliteDatabase.Database,
    file: string,
    {
      checkpointMs = CHECKPOINT_INTERVAL_MS,
      syncMs = WAL_SYNC_INTERVAL_MS,
      restartBytes = WAL_RESTART_BYTES,
    }: WalTiming = {},
  ): Promise<WalCheckpoints> {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const pageSize = database.pragma('page_size', { simple: true }) as number;
    const restartFrames = Math.ceil(restartBytes / pageSize);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file, checkpointMs, syncMs, restartFrames },
    });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    worker.unref();
    const checkpoints = new WalCheckpoints(worker, database);
    worker.on('error', () => checkpoints.fallBack());
    worker.on('message', (message: { long?: number }) => {
      if (typeof message?.long === 'number') checkpoints.startOver();
    });
    database.pragma('wal_autocheckpoint = 0');
    // The commit that starts the WAL over also cuts its file back to this.
    database.pragma(`journal_size_limit = ${restartBytes}`);
    return checkpoints;
  }

  /**
   * How to hold the connection's writes for a moment (`GroupCommit.quiet`).
   * Without it the WAL is copied all the same, but under a steady stream of
   * commits it may never start over.
   */
  holdWritesWith(hold: (run: () => Promise<void>) => Promise<void>): void {
    this.holdWrites = hold;
  }

  /**
   * A WAL starts over only when a commit begins with every frame copied, and
   * behind a steady stream of commits that moment need never come: the WAL
   * then grows without end. So once it is long, writes wait (without blocking
   * the event loop) while one checkpoint copies the rest; the next commit starts it over.
   */
  private startOver(): void {
    if (!this.holdWrites || this.holding) return;
    this.holding = true;
    this.holdWrites(async () => {
      // A worker that has died answers nothing: the writes must not wait for it.
      await Promise.race([this.checkpointNow(), this.exited]);
    })
      // A failed attempt leaves the WAL as it is; the next report of a long WAL tries again.
      .catch(() => {})
      .finally(() => {
        this.holding = false;
      });
  }

  /** One checkpoint now, on the worker; resolves with how many it has made. */
  async checkpointNow(): Promise<number> {
    return (await this.ask('checkpoint')).checkpoints;
  }

  /** How many checkpoints the worker has made, and how many syncs of the WAL alone. */
  counts(): Promise<WalWork> {
    return this.ask('counts');
  }

  private ask(question: 'checkpoint' | 'counts'): Promise<WalWork> {
    return new Promise((resolve) => {
      const onMessage = (message: WalWork & { answers?: string }) => {
        if (message?.answers !== question) return;
        this.worker.off('message', onMessage);
        resolve({ checkpoints: message.checkpoints, walSyncs: message.walSyncs });
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage(question);
    });
  }

  /** Stops the worker; closing the connection afterwards checkpoints what is left. */
  stop(): Promise<void> {
    // Unreferenced, the worker would not keep the process alive until it
    // exits: with nothing else left, Node would end before stop() settles.
    this.worker.ref();
    this.worker.postMessage('stop');
    return this.exited;
  }

  private fallBack(): void {
    if (this.database.open) this.database.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
