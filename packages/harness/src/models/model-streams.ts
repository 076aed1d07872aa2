import type { LanguageModel, ModelMessage } from 'ai';
import { AnswerChunker, type ChunkingOptions } from './answer-chunks.js';
import type { ModelCatalog } from './catalog.js';
import { streamModelTurn, type ModelTimeouts, type ModelTurnResult } from './stream-turn.js';

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

/** Streams one answer from `model`, grouping its deltas; on whichever thread calls it. */
export async function streamGrouped(
  model: LanguageModel,
  request: ModelStreamRequest,
  signal: AbortSignal,
  onChunk: OnAnswerChunk,
): Promise<ModelTurnResult> {
  const chunker = new AnswerChunker(onChunk, request.chunking);
  try {
    const result = await streamModelTurn({
      model,
      modelId: request.modelId,
      system: request.system,
      messages: request.messages,
      signal,
      onDelta: (text) => chunker.push(text),
      timeouts: request.timeouts,
      maxAnswerChars: request.maxAnswerChars,
    });
    chunker.close();
    return result;
  } finally {
    // After an abort or a failure nothing more goes out.
    chunker.discard();
  }
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
    return streamGrouped(model, request, signal, onChunk);
  }

  async close(): Promise<void> {}
}
