import type { ModelMessage } from 'ai';
import type { ChunkingOptions } from './answer-chunks.js';
import type { ModelCatalog } from './catalog.js';
import type { ModelTimeouts } from './errors.js';
import type { ModelTurnResult } from './stream-turn.js';

/** One answer to stream: what `streamModelTurn` needs, with the model named, not built. */
export interface ModelStreamRequest {
  /** `<provider>/<model>`, already known to the catalog. */
  modelId: string;
  system?: string;
  messages: ModelMessage[];
  timeouts?: ModelTimeouts;
  maxAnswerChars?: number;
  /** How deltas are grouped into the chunks handed to `onChunk`. */
  chunking: ChunkingOptions;
}

/** A group of deltas to publish, in order; `first` on the first of the answer. */
export type OnAnswerChunk = (text: string, first: boolean) => void;

/**
 * Where model answers stream: on the thread that serves requests, or on a
 * worker thread so that this one only sees grouped chunks (the AI
 * SDK's per-token stream chain was the largest cost of a streamed turn).
 * `stream` settles like `streamModelTurn`: a `ModelError`, a
 * `ModelTimeoutError`, or an error named `AbortError` as soon as `signal` aborts.
 */
export interface ModelStreams {
  stream(
    request: ModelStreamRequest,
    signal: AbortSignal,
    onChunk: OnAnswerChunk,
  ): Promise<ModelTurnResult>;
  close(): Promise<void>;
}

/** Answers streamed on the calling thread: for a catalog with an injected `fetch` (tests). */
export class InLoopModelStreams implements ModelStreams {
  constructor(private readonly catalog: ModelCatalog) {}

  async stream(
    request: ModelStreamRequest,
    signal: AbortSignal,
    onChunk: OnAnswerChunk,
  ): Promise<ModelTurnResult> {
    const model = await this.catalog.languageModel(request.modelId);
    // Loaded here, not above: a harness on the stream worker never needs the AI SDK's stream code.
    const { streamGrouped } = await import('./grouped-stream.js');
    return streamGrouped(model, request, signal, onChunk);
  }

  async close(): Promise<void> {}
}
