import type SqliteDatabase from 'better-sqlite3';
import { CheckpointThread, type FileWork } from './checkpoint-thread.js';

/**
 * How often the checkpoint thread copies the WAL back into the database file. Each copy
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

/**
 * The WAL's file is cut back when it starts over only past this many times
 * the restart length. Under a steady stream it reaches the restart length and
 * then some (what came in while the copy was asked for), and cut back to
 * exactly that length each time, it grew again by appending: appends that
 * allocate blocks wait while the checkpoint thread syncs, and lone commands
 * stalled 50 to 160 ms every two seconds (20 to 40 ms, the hold itself,
 * when the file is reused). Only a file that grew past this, after a burst, is cut.
 */
export const KEPT_WAL_RESTARTS = 4;

/** SQLite's own default, restored if the thread cannot checkpoint the file. */
const AUTOCHECKPOINT_PAGES = 1000;

/** When the thread copies and syncs; each left out takes its default above. */
export interface WalTiming {
  checkpointMs?: number;
  syncMs?: number;
  /** How long the WAL may grow before writes are held for it to start over. */
  restartBytes?: number;
}

/** What the thread has done for the file so far, and which thread it is. */
export type WalWork = FileWork;

/**
 * WAL checkpoints of one SQLite file, on a worker thread. A checkpoint copies the WAL back into the
 * database file and syncs it: left to SQLite (every 1,000 pages, inside
 * whichever commit crosses the line) that sync blocked the event loop, about a
 * third of a command's store time on the 2-core bench machine. The commits stay
 * on the one connection and as durable as before (WAL, synchronous = NORMAL);
 * only the copying moves.
 */
export class WalCheckpoints {
  private holdWrites?: (run: () => Promise<void>) => Promise<void>;
  private holding = false;
  private id = 0;

  private constructor(
    private readonly thread: CheckpointThread,
    private readonly database: SqliteDatabase.Database,
  ) {}

  /**
   * Checkpoints `file` on the process's checkpoint thread (`CheckpointThread`),
   * and turns the connection's own checkpoints off once the thread has it.
   */
  static async start(
    database: SqliteDatabase.Database,
    file: string,
    {
      checkpointMs = CHECKPOINT_INTERVAL_MS,
      syncMs = WAL_SYNC_INTERVAL_MS,
      restartBytes = WAL_RESTART_BYTES,
    }: WalTiming = {},
  ): Promise<WalCheckpoints> {
    const pageSize = database.pragma('page_size', { simple: true }) as number;
    const restartFrames = Math.ceil(restartBytes / pageSize);
    const thread = CheckpointThread.shared();
    const checkpoints = new WalCheckpoints(thread, database);
    checkpoints.id = await thread.open(
      file,
      { checkpointMs, syncMs, restartFrames },
      { long: () => checkpoints.startOver(), stopped: () => checkpoints.fallBack() },
    );
    database.pragma('wal_autocheckpoint = 0');
    // The commit that starts the WAL over also cuts its file back to this.
    database.pragma(`journal_size_limit = ${KEPT_WAL_RESTARTS * restartBytes}`);
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
    // A thread that has ended rejects at once: the writes never wait for it.
    this.holdWrites(() => this.checkpointNow().then(() => undefined))
      // A failed attempt leaves the WAL as it is; the next report of a long WAL tries again.
      .catch(() => {})
      .finally(() => {
        this.holding = false;
      });
  }

  /** One checkpoint now, on the thread; resolves with how many it has made of this file. */
  async checkpointNow(): Promise<number> {
    return (await this.thread.ask(this.id, 'checkpoint')).checkpoints;
  }

  /** How many checkpoints the thread has made of this file, and how many syncs of its WAL alone. */
  counts(): Promise<WalWork> {
    return this.thread.ask(this.id, 'counts');
  }

  /** Stops checkpointing the file; closing the connection afterwards checkpoints what is left. */
  async stop(): Promise<void> {
    // A thread that has ended holds nothing of the file.
    await this.thread.ask(this.id, 'close').catch(() => {});
  }

  private fallBack(): void {
    if (this.database.open) this.database.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
