import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { DEFAULT_CHUNKING } from './answer-chunks.js';
import { createModelCatalog, type ModelsConfig } from './catalog.js';
import { ModelError, UnknownModelError } from './errors.js';
import { InLoopModelStreams, type ModelStreamRequest, type ModelStreams } from './model-streams.js';
import { ModelTimeoutError } from './errors.js';
import { spawnStreamWorker, StreamWorker } from './stream-worker-thread.js';
import { WorkerModelStreams } from './worker-streams.js';

const KEY = 'sk-test-worker-streams-0123456789';
const request = (over: Partial<ModelStreamRequest> = {}): ModelStreamRequest => ({
  modelId: 'offline/echo',
  messages: [{ role: 'user', content: 'tell me about threads' }],
  chunking: DEFAULT_CHUNKING,
  ...over,
});

const opened: ModelStreams[] = [];
let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await Promise.all(opened.splice(0).map((streams) => streams.close()));
  await fake?.close();
  fake = undefined;
});

async function workerStreams(config: ModelsConfig = {}, env: NodeJS.ProcessEnv = {}) {
  const catalog = await createModelCatalog({ config, env });
  const streams = new WorkerModelStreams(catalog, { config, env });
  opened.push(streams);
  return { streams, catalog };
}

function collect() {
  const chunks: Array<{ text: string; first: boolean }> = [];
  return { chunks, onChunk: (text: string, first: boolean) => chunks.push({ text, first }) };
}

/** Keeps this thread busy, as a burst of requests would. */
function blockThisThread(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('WorkerModelStreams', () => {
  it('streams the same answer, in the same grouped chunks, as streaming on this thread', async () => {
    const { streams, catalog } = await workerStreams();
    const inLoop = new InLoopModelStreams(catalog);
    const onWorker = collect();
    const here = collect();
    const chunking = { flushMs: 0, flushChars: 1 };
    const a = await streams.stream(
      request({ chunking }),
      new AbortController().signal,
      onWorker.onChunk,
    );
    const b = await inLoop.stream(
      request({ chunking }),
      new AbortController().signal,
      here.onChunk,
    );
    expect(a).toEqual(b);
    expect(onWorker.chunks).toEqual(here.chunks);
    expect(onWorker.chunks[0]!.first).toBe(true);
    expect(onWorker.chunks.map((c) => c.text).join('')).toBe(a.text);
  });

  it('goes on streaming while this thread is busy: the answer is there when it is free again', async () => {
    const { streams } = await workerStreams({ offline: { latencyMs: 1 } });
    await streams.stream(request(), new AbortController().signal, () => {}); // the worker is up
    const { chunks, onChunk } = collect();
    let firstChunk!: () => void;
    const started = new Promise<void>((resolve) => (firstChunk = resolve));
    const answer = streams.stream(request(), new AbortController().signal, (text, first) => {
      onChunk(text, first);
      firstChunk();
    });
    await started;
    blockThisThread(800);
    // Everything the worker did meanwhile waits as messages: the answer settles
    // before this thread's next turn of its loop.
    const next = new Promise((resolve) => setImmediate(() => resolve('this thread first')));
    const result = await Promise.race([answer, next]);
    expect(result).not.toBe('this thread first');
    expect(chunks.map((c) => c.text).join('')).toBe((result as { text: string }).text);
  });

  it('stops at once on abort, with an AbortError, and sends nothing after it', async () => {
    const { streams } = await workerStreams({ offline: { latencyMs: 20 } });
    const abort = new AbortController();
    const { chunks, onChunk } = collect();
    const answer = streams.stream(request(), abort.signal, (text, first) => {
      onChunk(text, first);
      abort.abort();
    });
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    const seen = chunks.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chunks.length).toBe(seen);
    // The worker goes on serving.
    const after = await streams.stream(request(), new AbortController().signal, () => {});
    expect(after.text).toContain('tell me about threads');
  });

  it("refuses an unknown model with the catalog's message, before the worker starts", async () => {
    const { streams } = await workerStreams();
    await expect(
      streams.stream(request({ modelId: 'offline/nope' }), new AbortController().signal, () => {}),
    ).rejects.toBeInstanceOf(UnknownModelError);
  });

  it('fails with the timeout that fired, as a ModelTimeoutError', async () => {
    const { streams } = await workerStreams({ offline: { latencyMs: 400 } });
    const timeouts = { firstByteMs: 5_000, idleMs: 50, totalMs: 10_000 };
    const failure = await streams
      .stream(request({ timeouts }), new AbortController().signal, () => {})
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelTimeoutError);
    expect(failure).toMatchObject({ which: 'idleMs', ms: 50 });
  });

  it('fails a provider error as the same ModelError, status and key-free message', async () => {
    fake = await startFakeOpenAI({ models: ['gpt-test'], apiKey: KEY });
    const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl };
    const { streams, catalog } = await workerStreams({}, env);
    const inLoop = new InLoopModelStreams(catalog);
    const call = (on: ModelStreams) =>
      on
        .stream(request({ modelId: 'openai/gpt-test' }), new AbortController().signal, () => {})
        .catch((error: unknown) => error);
    fake.failNext(1, 401, `bad key ${KEY}`);
    const fromWorker = await call(streams);
    fake.failNext(1, 401, `bad key ${KEY}`);
    const fromHere = await call(inLoop);
    expect(fromWorker).toBeInstanceOf(ModelError);
    expect(fromWorker).toMatchObject({ statusCode: 401, message: (fromHere as Error).message });
    expect((fromWorker as Error).message).not.toContain(KEY);
    // Streams through the worker over real HTTP too.
    const ok = await call(streams);
    expect(ok).toMatchObject({ text: 'fake reply from gpt-test to "tell me about threads"' });
  });

  it('fails the answers in flight when the worker dies, and starts a new one for the next', async () => {
    const config = { offline: { latencyMs: 50 } };
    const catalog = await createModelCatalog({ config, env: {} });
    const workers: Worker[] = [];
    const setup = { config, env: {} };
    const worker = new StreamWorker(() => {
      const started = spawnStreamWorker();
      workers.push(started);
      return started;
    });
    const streams = new WorkerModelStreams(catalog, setup, worker);
    opened.push(streams);
    let firstChunk!: () => void;
    const started = new Promise<void>((resolve) => (firstChunk = resolve));
    const answer = streams
      .stream(request(), new AbortController().signal, () => firstChunk())
      .catch((error: unknown) => error);
    await started;
    await workers[0]!.terminate();
    const failure = await answer;
    expect(failure).toBeInstanceOf(ModelError);
    expect((failure as Error).message).toContain('the model stream worker exited');
    const next = await streams.stream(request(), new AbortController().signal, () => {});
    expect(next.text).toContain('tell me about threads');
    expect(workers).toHaveLength(2);
  });

  it('fails the answers in flight when closed', async () => {
    const { streams } = await workerStreams({ offline: { latencyMs: 50 } });
    const answer = streams
      .stream(request(), new AbortController().signal, () => {})
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await streams.close();
    expect(await answer).toBeInstanceOf(ModelError);
  });

  it("shares the process's one worker between streams of other models and keys, each answered by its own, and closing one fails only its own answers", async () => {
    expect(StreamWorker.shared()).toBe(StreamWorker.shared());
    expect(StreamWorker.shared(pathToFileURL('/elsewhere/stream-worker.js'))).not.toBe(
      StreamWorker.shared(),
    );
    fake = await startFakeOpenAI({ models: ['gpt-test'], apiKey: KEY });
    const remote = await workerStreams({}, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl });
    const closing = await workerStreams({ offline: { latencyMs: 50 } });
    const staying = await workerStreams({ offline: { latencyMs: 5 } });
    const closed = closing.streams
      .stream(request(), new AbortController().signal, () => {})
      .catch((error: unknown) => error);
    const kept = staying.streams.stream(request(), new AbortController().signal, () => {});
    const fromFake = remote.streams.stream(
      request({ modelId: 'openai/gpt-test' }),
      new AbortController().signal,
      () => {},
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await closing.streams.close();
    expect(await closed).toBeInstanceOf(ModelError);
    expect((await kept).text).toContain('tell me about threads');
    expect((await fromFake).text).toBe('fake reply from gpt-test to "tell me about threads"');
    expect(StreamWorker.shared().running).toBe(true);
  });

  it('ends a worker a while after the last harness leaves it, unless another comes', async () => {
    const setup = { config: { offline: { latencyMs: 1 } }, env: {} };
    const catalog = await createModelCatalog(setup);
    const worker = new StreamWorker(() => spawnStreamWorker(), 5000);
    const first = new WorkerModelStreams(catalog, setup, worker);
    await first.stream(request(), new AbortController().signal, () => {});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await first.close();
      expect(worker.running).toBe(true);
      const second = new WorkerModelStreams(catalog, setup, worker);
      vi.advanceTimersByTime(60_000);
      expect(worker.running).toBe(true);
      await second.close();
      vi.advanceTimersByTime(60_000);
      expect(worker.running).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts the built worker it is given instead of the sources', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-built-worker-'));
    const built = path.join(dir, 'stream-worker.js');
    writeFileSync(
      built,
      "import { parentPort } from 'node:worker_threads';\n" +
        "parentPort.postMessage({ ran: 'built' });\n",
    );
    const worker = spawnStreamWorker(pathToFileURL(built));
    try {
      const [message] = (await once(worker, 'message')) as [unknown];
      expect(message).toEqual({ ran: 'built' });
    } finally {
      await worker.terminate();
    }
  });
});
