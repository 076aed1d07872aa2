import { streamText } from 'ai';
import type { LanguageModel, ModelMessage, TextStreamPart, ToolSet } from 'ai';
import { ModelAbortError, ModelError, isAbortError, toModelError } from './errors.js';

export interface StreamModelTurnOptions {
  model: LanguageModel;
  /** `<provider>/<model>`, used in error messages. */
  modelId: string;
  system?: string;
  messages: ModelMessage[];
  signal?: AbortSignal;
  /** Called with each text delta, in order. */
  onDelta: (text: string) => void;
  /** Retries of failed calls (default 0: a dead server fails at once). */
  maxRetries?: number;
  /** When a model that stops sending is given up on; none by default. */
  timeouts?: ModelTimeouts;
  /** The longest answer kept, in characters; the model is stopped there. Unbounded by default. */
  maxAnswerChars?: number;
}

/** Each ends the turn with a note naming it (`ModelTimeoutError`). */
export interface ModelTimeouts {
  /** From the call until the model's first part. */
  firstByteMs: number;
  /** Between two parts of the stream. */
  idleMs: number;
  /** The whole answer. */
  totalMs: number;
}

export interface ModelTurnResult {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
  /**
   * Why the answer is not the whole of what the model meant to say:
   * `answer-limit` when it reached `maxAnswerChars`, `incomplete` when the
   * stream ended without the model saying it had finished.
   */
  cut?: 'answer-limit' | 'incomplete';
}

/** Finish reasons of an answer the model ended itself. */
const FINISHED = new Set(['stop', 'length', 'content-filter', 'tool-calls']);

/** Which timeout fired; the message says so in words. */
export class ModelTimeoutError extends Error {
  override name = 'ModelTimeoutError';
  constructor(
    readonly which: keyof ModelTimeouts,
    modelId: string,
    ms: number,
  ) {
    const what = {
      firstByteMs: `sent nothing for ${seconds(ms)} after it was called`,
      idleMs: `stopped sending for ${seconds(ms)} in the middle of its answer`,
      totalMs: `was still answering after ${seconds(ms)}`,
    }[which];
    super(`model ${modelId} ${what}, so the turn was ended (limit: ${which}).`);
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function abortedError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new ModelAbortError('the model turn was aborted', { cause: reason });
}

type Part = TextStreamPart<ToolSet>;

/**
 * Runs one model turn with `streamText`, reading `fullStream` (where errors show up as
 * `error` parts) and handing each text delta to `onDelta`.
 *
 * Rejects with a `ModelError` carrying a short, key-free message when the model fails,
 * and with an error named `AbortError` as soon as `signal` aborts.
 */
export async function streamModelTurn(options: StreamModelTurnOptions): Promise<ModelTurnResult> {
  const { model, modelId, system, messages, signal, onDelta } = options;
  if (signal?.aborted) throw abortedError(signal);

  // Timeouts and the answer cap stop the call itself, not only the reading of it.
  const guard = new AbortController();
  const result = streamText({
    model,
    system: system && system.trim() !== '' ? system : undefined,
    messages,
    abortSignal: signal ? AbortSignal.any([signal, guard.signal]) : guard.signal,
    maxRetries: options.maxRetries ?? 0,
    // The default handler logs the whole error, request body included. Errors are
    // handled below from the `error` parts of the stream, so nothing is logged here.
    onError: () => {},
  });
  const deadlines = new Deadlines(options.timeouts, modelId, guard);

  const reader = result.fullStream.getReader();
  let stopOnAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    if (!signal) return;
    stopOnAbort = () => reject(abortedError(signal));
    signal.addEventListener('abort', stopOnAbort, { once: true });
  });
  aborted.catch(() => undefined);

  let text = '';
  let usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason: string | undefined;
  const maxChars = options.maxAnswerChars ?? Infinity;
  try {
    let deadline = deadlines.next();
    for (;;) {
      const next = await Promise.race([reader.read(), aborted, deadline]);
      if (next.done) break;
      const part: Part = next.value;
      // The SDK's own opening parts come before the model has said anything.
      if (part.type !== 'start' && part.type !== 'start-step') deadline = deadlines.next();
      if (part.type === 'text-delta') {
        if (!part.text) continue;
        if (text.length + part.text.length > maxChars) {
          const kept = part.text.slice(0, maxChars - text.length);
          text += kept;
          if (kept) onDelta(kept);
          guard.abort(new ModelAbortError('the answer reached its size limit'));
          return { text, usage, cut: 'answer-limit' };
        }
        text += part.text;
        onDelta(part.text);
      } else if (part.type === 'finish') {
        finishReason = part.finishReason;
        usage = {
          inputTokens: part.totalUsage.inputTokens ?? 0,
          outputTokens: part.totalUsage.outputTokens ?? 0,
        };
      } else if (part.type === 'abort') {
        throw signal ? abortedError(signal) : new ModelAbortError();
      } else if (part.type === 'error') {
        if (signal?.aborted) throw abortedError(signal);
        if (isAbortError(part.error)) throw new ModelAbortError(undefined, { cause: part.error });
        throw toModelError(modelId, part.error);
      }
    }
    if (signal?.aborted) throw abortedError(signal);
    if (finishReason && FINISHED.has(finishReason)) return { text, usage };
    // No finish from the model: a stream cut off, or a body that was no stream at all.
    if (text === '') {
      throw new ModelError(
        modelId,
        `the reply could not be read as an answer (it ended without text or a finish, reason: ${finishReason ?? 'none'})`,
      );
    }
    return { text, usage, cut: 'incomplete' };
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal);
    if (error instanceof ModelTimeoutError || error instanceof ModelError) throw error;
    if (isAbortError(error)) throw error;
    throw toModelError(modelId, error);
  } finally {
    deadlines.clear();
    if (stopOnAbort) signal?.removeEventListener('abort', stopOnAbort);
    reader.cancel().catch(() => undefined);
  }
}

/** The next timeout of a model stream: first byte, then idle between parts, within the total. */
class Deadlines {
  private readonly started = performance.now();
  private seenPart = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly timeouts: ModelTimeouts | undefined,
    private readonly modelId: string,
    private readonly guard: AbortController,
  ) {}

  /** Rejects when the model has been silent too long; call again after each part. */
  next(): Promise<never> {
    this.clear();
    const timeouts = this.timeouts;
    if (!timeouts) return new Promise<never>(() => undefined);
    const wait = this.seenPart ? timeouts.idleMs : timeouts.firstByteMs;
    const left = timeouts.totalMs - (performance.now() - this.started);
    const which: keyof ModelTimeouts =
      left <= wait ? 'totalMs' : this.seenPart ? 'idleMs' : 'firstByteMs';
    const ms = Math.max(0, Math.min(wait, left));
    this.seenPart = true;
    return new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => {
        const error = new ModelTimeoutError(which, this.modelId, timeouts[which]);
        this.guard.abort(error);
        reject(error);
      }, ms);
    });
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
