import type { ModelCatalog } from './catalog.js';
import type { ModelStreamRequest, ModelStreams, OnAnswerChunk } from './model-streams.js';
import { ModelError, abortedError } from './errors.js';
import type { StreamWorkerSetup } from './stream-messages.js';
import { StreamWorker } from './stream-worker-thread.js';
import type { ModelTurnResult } from './stream-turn.js';

/**
 * Answers streamed on a worker thread (`StreamWorker`), so that the thread
 * serving requests handles a few grouped chunks a turn instead of the AI SDK's
 * stream chain for every token (commands stay instant while turns stream).
 */
export class WorkerModelStreams implements ModelStreams {
  /** The answers this one started and that have not settled. */
  private readonly streaming = new Map<number, string>();
  private readonly setup: number;
  private closed = false;

  constructor(
    private readonly catalog: ModelCatalog,
    setup: StreamWorkerSetup,
    /** The worker to stream on: the process's unless one is given. */
    private readonly worker: StreamWorker = StreamWorker.shared(),
  ) {
    this.setup = worker.join(setup);
  }

  async stream(
    request: ModelStreamRequest,
    signal: AbortSignal,
    onChunk: OnAnswerChunk,
  ): Promise<ModelTurnResult> {
    // Unknown ids fail here, with the catalog's message, as on the serving thread.
    await this.catalog.languageModel(request.modelId);
    if (signal.aborted) throw abortedError(signal);
    return new Promise<ModelTurnResult>((resolve, reject) => {
      let id = 0;
      // An abort ends the answer at once; the worker is told to stop the call.
      const onAbort = () => this.worker.stop(id, abortedError(signal));
      const settled = () => {
        this.streaming.delete(id);
        signal.removeEventListener('abort', onAbort);
      };
      id = this.worker.start(this.setup, request, {
        modelId: request.modelId,
        onChunk,
        resolve: (result) => (settled(), resolve(result)),
        reject: (error) => (settled(), reject(error)),
      });
      this.streaming.set(id, request.modelId);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Fails the answers this one started, and leaves its worker (`StreamWorker.leave`): once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const [id, modelId] of [...this.streaming])
      this.worker.stop(id, new ModelError(modelId, 'the server is shutting down'));
    await this.worker.leave(this.setup);
  }
}
