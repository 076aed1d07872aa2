import { Worker } from 'node:worker_threads';
import type { ModelCatalog } from './catalog.js';
import { ModelError } from './errors.js';
import type { ModelStreamRequest, ModelStreams, OnAnswerChunk } from './model-streams.js';
import {
  errorOf,
  type FromStreamWorker,
  type StreamWorkerSetup,
  type ToStreamWorker,
} from './stream-messages.js';
import { abortedError, type ModelTurnResult } from './stream-turn.js';

/** The stream worker's young generation, in MB: larger than V8's default. */
const YOUNG_GENERATION_MB = 64;

interface Pending {
  modelId: string;
  onChunk: OnAnswerChunk;
  resolve(result: ModelTurnResult): void;
  reject(error: Error): void;
}

/**
 * Answers streamed on one worker thread, so that the thread serving requests
 * handles a few grouped chunks a turn instead of the AI SDK's stream chain for
 * every token (commands stay instant while turns stream). The
 * worker starts with the first answer, and again after it dies; a death fails
 * the answers it was streaming, as a model error.
 */
export class WorkerModelStreams implements ModelStreams {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly catalog: ModelCatalog,
    private readonly setup: StreamWorkerSetup,
    /** How the worker is started; tests keep a hold of it. */
    private readonly spawn: (setup: StreamWorkerSetup) => Worker = spawnStreamWorker,
  ) {}

  async stream(
    request: ModelStreamRequest,
    signal: AbortSignal,
    onChunk: OnAnswerChunk,
  ): Promise<ModelTurnResult> {
    // Unknown ids fail here, with the catalog's message, as on the serving thread.
    await this.catalog.languageModel(request.modelId);
    if (signal.aborted) throw abortedError(signal);
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<ModelTurnResult>((resolve, reject) => {
      // An abort ends the answer at once; the worker is told to stop the call.
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        this.send({ type: 'abort', id });
        this.settled();
        reject(abortedError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => signal.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        modelId: request.modelId,
        onChunk,
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      worker.ref();
      this.send({ type: 'start', id, request });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll('the server is shutting down');
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.spawn(this.setup);
    worker.on('message', (message: FromStreamWorker) => this.received(message));
    worker.on('error', (error) => this.died(worker, `failed: ${error.message}`));
    worker.on('exit', (code) => this.died(worker, `exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private received(message: FromStreamWorker): void {
    const pending = this.pending.get(message.id);
    if (!pending) return; // aborted here already
    if (message.type === 'chunk') {
      pending.onChunk(message.text, message.first);
      return;
    }
    this.pending.delete(message.id);
    this.settled();
    if (message.type === 'done') pending.resolve(message.result);
    else pending.reject(errorOf(message.error, pending.modelId));
  }

  private died(worker: Worker, how: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.failAll(`the model stream worker ${how}`);
  }

  private failAll(reason: string): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const pending of all) pending.reject(new ModelError(pending.modelId, reason));
  }

  /** An idle worker does not keep the process alive. */
  private settled(): void {
    if (this.pending.size === 0) this.worker?.unref();
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
export function spawnStreamWorker(setup: StreamWorkerSetup, builtEntry?: URL): Worker {
  const options = {
    workerData: setup,
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
