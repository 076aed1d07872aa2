/**
 * The stream worker's thread: it builds models from the same config as each
 * harness's catalog, streams answers with `streamGrouped`, and posts grouped
 * chunks and endings back. See `stream-worker-thread.ts` for the serving
 * thread's side.
 */
import { parentPort } from 'node:worker_threads';
import type { LanguageModel } from 'ai';
import { toModelError } from './call-errors.js';
import { ModelTimeoutError, isAbortError } from './errors.js';
import { streamGrouped } from './grouped-stream.js';
import type { ModelStreamRequest } from './model-streams.js';
import { configureProviders } from './providers.js';
import type { FromStreamWorker, StreamFailure, ToStreamWorker } from './stream-messages.js';

const port = parentPort!;
/** Each harness's providers, by its setup's number. */
const setups = new Map<number, ReturnType<typeof configureProviders>>();
const running = new Map<number, AbortController>();
const post = (message: FromStreamWorker) => port.postMessage(message);

/** The serving thread checked the id against the catalog; here it is only built. */
function modelFor(setup: number, modelId: string): Promise<LanguageModel> {
  const providers = setups.get(setup);
  if (!providers) throw new Error(`no setup ${setup} for ${modelId}`);
  const slash = modelId.indexOf('/');
  const entry = providers.get(modelId.slice(0, slash));
  if (!entry) throw new Error(`no provider for ${modelId}`);
  return entry.create(modelId.slice(slash + 1));
}

/** A stream's error as the serving thread is told it (`errorOf` there makes it an error again). */
function failureOf(error: unknown, modelId: string): StreamFailure {
  if (error instanceof ModelTimeoutError)
    return { kind: 'timeout', which: error.which, ms: error.ms };
  if (isAbortError(error)) {
    return { kind: 'abort', message: error instanceof Error ? error.message : String(error) };
  }
  const model = toModelError(modelId, error);
  return { kind: 'model', reason: model.reason, statusCode: model.statusCode };
}

async function run(id: number, setup: number, request: ModelStreamRequest): Promise<void> {
  const abort = new AbortController();
  running.set(id, abort);
  try {
    const model = await modelFor(setup, request.modelId);
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
  switch (message.type) {
    case 'setup':
      setups.set(
        message.setup,
        configureProviders(message.config, message.env, (input, init) =>
          globalThis.fetch(input, init),
        ),
      );
      break;
    case 'forget':
      setups.delete(message.setup);
      break;
    case 'abort':
      running.get(message.id)?.abort();
      break;
    case 'start':
      void run(message.id, message.setup, message.request);
      break;
  }
});
