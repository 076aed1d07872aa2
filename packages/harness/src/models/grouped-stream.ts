import type { LanguageModel } from 'ai';
import { AnswerChunker } from './answer-chunks.js';
import type { ModelStreamRequest, OnAnswerChunk } from './model-streams.js';
import { streamModelTurn, type ModelTurnResult } from './stream-turn.js';

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
