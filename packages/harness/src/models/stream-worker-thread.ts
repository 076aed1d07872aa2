import { Worker } from 'node:worker_threads';
import { ModelError } from './errors.js';
import type { ModelStreamRequest, OnAnswerChunk } from './model-streams.js';
import {
  errorOf,
  type FromStreamWorker,
  type StreamWorkerSetup,
  type ToStreamWorker,
} from './stream-messages.js';
import type { ModelTurnResult } from './stream-turn.js';

/** The stream worker's young generation, in MB: larger than V8's default. */
const YOUNG_GENERATION_MB = 64;

/** How long a shared worker that no harness uses waits for the next before it ends. */
const SHARED_IDLE_MS = 5000;

/** An answer streaming on the worker, as its asker awaits it. */
export interface StreamingAnswer {
  modelId: string;
  onChunk: OnAnswerChunk;
  resolve(result: ModelTurnResult): void;
  reject(error: Error): void;
}

/**
 * One stream worker and the answers streaming on it, for the harnesses that
 * `join` it, each with its own models (`StreamWorkerSetup`). The worker
 * starts with the first answer, and again after it dies; a death fails the
 * answers it was streaming, as a model error. An idle worker does not keep
 * the process alive.
 *
 * Starting one costs a new thread its modules: several hundred ms of CPU. So
 * a process has one (`shared`, per build) for all the harnesses it runs; once
 * the last has left, it ends after a few seconds unless another comes (as in
 * a test run, which starts harness after harness). In a deployment there is
 * one harness a process anyway.
 */
export class StreamWorker {
  private static readonly byBuild = new Map<string, StreamWorker>();

  /** The process's worker, started from `builtEntry` when given. */
  static shared(builtEntry?: URL): StreamWorker {
    const build = builtEntry?.href ?? '';
    let worker = StreamWorker.byBuild.get(build);
    if (!worker) {
      worker = new StreamWorker(() => spawnStreamWorker(builtEntry), SHARED_IDLE_MS);
      StreamWorker.byBuild.set(build, worker);
    }
    return worker;
  }

  private worker: Worker | undefined;
  private lastId = 0;
  private lastSetup = 0;
  private readonly answers = new Map<number, StreamingAnswer>();
  private readonly setups = new Map<number, StreamWorkerSetup>();
  private idle: NodeJS.Timeout | undefined;

  /**
   * A worker started by `spawn`. Once the last harness has left it ends,
   * after `idleMs` if given, else at once.
   */
  constructor(
    private readonly spawn: () => Worker,
    private readonly idleMs?: number,
  ) {}

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** A harness with the models `setup` builds starts using the worker; returns its number. */
  join(setup: StreamWorkerSetup): number {
    clearTimeout(this.idle);
    const number = ++this.lastSetup;
    this.setups.set(number, setup);
    this.send({ type: 'setup', setup: number, ...setup });
    return number;
  }

  /** Starts streaming `request` with the models of setup `setup`; returns the answer's id. */
  start(setup: number, request: ModelStreamRequest, answer: StreamingAnswer): number {
    const worker = this.started();
    const id = ++this.lastId;
    this.answers.set(id, answer);
    worker.ref();
    this.send({ type: 'start', id, setup, request });
    return id;
  }

  /** Stops the answer `id`, which then settles with `error`; false if it had already settled. */
  stop(id: number, error: Error): boolean {
    const answer = this.answers.get(id);
    if (!answer) return false;
    this.answers.delete(id);
    this.send({ type: 'abort', id });
    this.settled();
    answer.reject(error);
    return true;
  }

  /** A harness leaves: its setup is forgotten, and the worker ends once none is left. */
  async leave(setup: number): Promise<void> {
    if (!this.setups.delete(setup)) return;
    this.send({ type: 'forget', setup });
    if (this.setups.size > 0) return;
    if (this.idleMs === undefined) {
      await this.end();
      return;
    }
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.setups.size === 0) void this.end();
    }, this.idleMs).unref();
  }

  private async end(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll('the server is shutting down');
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    worker.on('message', (message: FromStreamWorker) => this.received(message));
    worker.on('error', (error) => this.died(worker, `failed: ${error.message}`));
    worker.on('exit', (code) => this.died(worker, `exited with code ${code}`));
    this.worker = worker;
    // A new worker knows no setup yet: every harness's, before any answer.
    for (const [number, setup] of this.setups)
      this.send({ type: 'setup', setup: number, ...setup });
    return worker;
  }

  private received(message: FromStreamWorker): void {
    const answer = this.answers.get(message.id);
    if (!answer) return; // stopped here already
    if (message.type === 'chunk') {
      answer.onChunk(message.text, message.first);
      return;
    }
    this.answers.delete(message.id);
    this.settled();
    if (message.type === 'done') answer.resolve(message.result);
    else answer.reject(errorOf(message.error, answer.modelId));
  }

  private died(worker: Worker, how: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(`the model stream worker ${how}`);
  }

  private failAll(reason: string): void {
    const all = [...this.answers.values()];
    this.answers.clear();
    for (const answer of all) answer.reject(new ModelError(answer.modelId, reason));
  }

  private settled(): void {
    if (this.answers.size === 0) this.worker?.unref();
  }

  private send(message: ToStreamWorker): void {
    this.worker?.postMessage(message);
  }
}

/**
 * The worker runs `stream-worker.js` beside this file; from the sources (tests,
 * `--conditions=a2a-source`), the TypeScript file through tsx, unless `builtEntry`
 * names one already built from them (loading the sources through tsx costs a
 * worker about three times the CPU of a built file).
 */
export function spawnStreamWorker(builtEntry?: URL): Worker {
  const options = {
    // Streams of many turns at once make short-lived garbage fast: a larger young
    // generation cut the CPU of an offline turn, 32 at once, by about a fifth.
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  };
  if (builtEntry) return new Worker(builtEntry, options);
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./stream-worker.js', import.meta.url), options);
  }
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./stream-worker.ts', import.meta.url).href;
  const load = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(load, { ...options, eval: true });
}
