import type { ModelTimeouts } from '../models/index.js';
import { DEFAULT_CHUNKING, type ChunkingOptions } from '../models/answer-chunks.js';

/** How turns stream and when they are given up on: the config file's `turns`. */
export interface TurnOptions extends ChunkingOptions, ModelTimeouts {
  /** The longest answer kept, in characters; the model is stopped there, with a mark. */
  answerChars: number;
  /** Answers stream on a worker thread, off the one serving requests. */
  modelWorker: boolean;
}

export const DEFAULT_TURN_OPTIONS: TurnOptions = {
  ...DEFAULT_CHUNKING,
  firstByteMs: 60_000,
  idleMs: 60_000,
  totalMs: 600_000,
  answerChars: 200_000,
  modelWorker: true,
};

const milliseconds = { type: 'integer', minimum: 1, maximum: 86_400_000 } as const;

export const TURN_OPTIONS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    flushMs: { type: 'integer', minimum: 0, maximum: 10_000 },
    flushChars: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    firstByteMs: milliseconds,
    idleMs: milliseconds,
    totalMs: milliseconds,
    answerChars: { type: 'integer', minimum: 1, maximum: 10_000_000 },
    modelWorker: { type: 'boolean' },
  },
} as const;
