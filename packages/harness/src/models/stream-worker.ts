/**
 * The stream worker's thread: it builds models from the same config as the
 * catalog, streams answers with `streamGrouped`, and posts grouped chunks and
 * endings back. See `worker-streams.ts` for the serving thread's side.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LanguageModel } from 'ai';
import { streamGrouped, type ModelStreamRequest } from './model-streams.js';
import { configureProviders } from './providers.js';
import {
  failureOf,
  type FromStreamWorker,
  type StreamWorkerSetup,
  type ToStreamWorker,
} from './stream-messages.js';

const port = parentPort!;
const setup = workerData as StreamWorkerSetup;
const providers = configureProviders(setup.config, setup.env, (input, init) =>
  globalThis.fetch(input, init),
);
const running = new Map<number, AbortController>();
const post = (message: FromStreamWorker) => port.postMessage(message);

/** The serving thread checked the id against the catalog; here it is only built. */
function modelFor(modelId: string): LanguageModel {
  const slash = modelId.indexOf('/');
  const entry = providers.get(modelId.slice(0, slash));
  if (!entry) throw new Error(`no provider for ${modelId}`);
  return entry.create(modelId.slice(slash + 1));
}

async function run(id: number, request: ModelStreamRequest): Promise<void> {
  const abort = new AbortController();
  running.set(id, abort);
  try {
    const model = modelFor(request.modelId);
    const result = await streamGrouped(model, request, abort.signal, (text, first) =>
      post({ type: 'chunk', id, text, first }),
    );
    post({ type: 'done', id, result });
  } catch (error) {
    post({ type: 'failed', id, error: failureOf(error, request.modelId) });
  } finally {
    running.delete(id);
  }
}

port.on('message', (message: ToStreamWorker) => {
  if (message.type === 'abort') running.get(message.id)?.abort();
  else void run(message.id, message.request);
});
