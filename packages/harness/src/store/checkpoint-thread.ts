import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Inline, so that it runs the same from TypeScript sources (tsx, vitest) and from the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const fs = require('node:fs');
const files = new Map();
const post = (message) => parentPort.postMessage(message);
const syncWal = (state) => {
  try {
    // Opened for writing, though it never writes: Windows syncs only a handle that may write.
    state.walFd ??= fs.openSync(state.file + '-wal', 'r+');
    fs.fsyncSync(state.walFd);
    state.walSyncs += 1;
  } catch {
    // No WAL yet, or it cannot be opened: the next checkpoint syncs it.
  }
};
const close = (id) => {
  const state = files.get(id);
  if (!state) return;
  files.delete(id);
  for (const timer of state.timers) clearInterval(timer);
  if (state.walFd !== undefined) fs.closeSync(state.walFd);
  state.database.close();
};
const open = (id, { file, checkpointMs, syncMs, restartFrames }) => {
  const database = new Database(file, { fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  const state = { file, database, checkpoints: 0, walSyncs: 0, walFd: undefined, timers: [] };
  state.checkpoint = () => {
    const [result] = database.pragma('wal_checkpoint(PASSIVE)');
    state.checkpoints += 1;
    return result;
  };
  state.timers.push(setInterval(() => {
    try {
      const { log } = state.checkpoint();
      if (log >= restartFrames) post({ id, long: log });
    } catch (error) {
      // This file's checkpoints stop; the others' go on.
      close(id);
      post({ id, failed: String(error) });
    }
  }, checkpointMs));
  if (syncMs < checkpointMs) state.timers.push(setInterval(() => syncWal(state), syncMs));
  files.set(id, state);
};
parentPort.on('message', ({ id, kind, ask, ...options }) => {
  try {
    if (kind === 'open') open(id, options);
    else if (kind === 'checkpoint') files.get(id)?.checkpoint();
    else if (kind === 'close') close(id);
    const state = files.get(id);
    post({ answers: ask, checkpoints: state?.checkpoints ?? 0, walSyncs: state?.walSyncs ?? 0 });
  } catch (error) {
    post({ answers: ask, error: String(error) });
  }
});
`;

/** When the thread checkpoints one file and syncs its WAL, and how long that WAL may grow. */
export interface FileTiming {
  checkpointMs: number;
  syncMs: number;
  /** Frames in the WAL past which the file is told `long`. */
  restartFrames: number;
}

/** What the thread tells about one file. */
export interface FileEvents {
  /** Its WAL has grown past `restartFrames`. */
  long(): void;
  /** Its checkpoints have stopped: one of them failed, or the thread ended. */
  stopped(): void;
}

/** What the thread has done for one file so far, and which thread it is. */
export interface FileWork {
  checkpoints: number;
  walSyncs: number;
  threadId: number;
}

type Kind = 'open' | 'checkpoint' | 'counts' | 'close';

interface FromThread {
  answers?: number;
  error?: string;
  checkpoints?: number;
  walSyncs?: number;
  id?: number;
  long?: number;
  failed?: string;
}

/**
 * One worker thread that checkpoints every SQLite file this process opens,
 * each on its own timers. A thread costs its start-up (about 80 ms of CPU);
 * a process that opens files one after another, as a test run does, pays it
 * once. It stays for the life of the process without keeping it alive, and
 * is replaced if it ends.
 */
export class CheckpointThread {
  private static current?: CheckpointThread;

  /** The process's thread, started on first use. */
  static shared(): CheckpointThread {
    if (!CheckpointThread.current || CheckpointThread.current.ended) {
      CheckpointThread.current = new CheckpointThread();
    }
    return CheckpointThread.current;
  }

  private readonly worker: Worker;
  private readonly files = new Map<number, FileEvents>();
  private readonly waiting = new Map<
    number,
    { resolve: (work: FileWork) => void; reject: (error: Error) => void }
  >();
  private lastId = 0;
  private lastQuestion = 0;
  private ended = false;

  private constructor() {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver } });
    this.worker.unref();
    this.worker.on('message', (message: FromThread) => this.receive(message));
    this.worker.on('error', (error) => this.end(error));
    this.worker.on('exit', () => this.end(new Error('the checkpoint thread exited')));
  }

  /** Starts checkpointing `file`; resolves with its id once the thread has it open. */
  async open(file: string, timing: FileTiming, events: FileEvents): Promise<number> {
    const id = ++this.lastId;
    this.files.set(id, events);
    try {
      await this.ask(id, 'open', { file, ...timing });
    } catch (error) {
      this.files.delete(id);
      throw error;
    }
    return id;
  }

  /** Asks the thread about, or for, one file; rejects if the thread ends first. */
  ask(id: number, kind: Kind, options: object = {}): Promise<FileWork> {
    if (this.ended) return Promise.reject(new Error('the checkpoint thread has ended'));
    const question = ++this.lastQuestion;
    return new Promise<FileWork>((resolve, reject) => {
      this.waiting.set(question, { resolve, reject });
      // While an answer is awaited, the thread keeps the process alive, or it could end first.
      if (this.waiting.size === 1) this.worker.ref();
      this.worker.postMessage({ ...options, id, kind, ask: question });
    }).finally(() => {
      if (kind === 'close') this.files.delete(id);
    });
  }

  private receive(message: FromThread): void {
    if (message.answers !== undefined) {
      const waiter = this.waiting.get(message.answers);
      if (!waiter) return;
      this.waiting.delete(message.answers);
      if (this.waiting.size === 0) this.worker.unref();
      if (message.error !== undefined) waiter.reject(new Error(message.error));
      else
        waiter.resolve({
          checkpoints: message.checkpoints ?? 0,
          walSyncs: message.walSyncs ?? 0,
          threadId: this.worker.threadId,
        });
      return;
    }
    const events = message.id === undefined ? undefined : this.files.get(message.id);
    if (message.long !== undefined) events?.long();
    if (message.failed !== undefined) {
      this.files.delete(message.id!);
      events?.stopped();
    }
  }

  private end(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
    for (const events of this.files.values()) events.stopped();
    this.files.clear();
  }
}
