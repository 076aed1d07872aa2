import { streamText } from 'ai';
import type { LanguageModel, ModelMessage, TextStreamPart, ToolSet } from 'ai';
import { toModelError } from './call-errors.js';
import {
  ModelAbortError,
  ModelError,
  ModelTimeoutError,
  abortedError,
  isAbortError,
  type ModelTimeouts,
} from './errors.js';

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
  const reader = result.fullStream.getReader();
  // An abort or a timeout cancels the reader, which ends a pending read at once even
  // when the model sends nothing: no race of promises on every part (profiled).
  const stopReading = () => void reader.cancel().catch(() => undefined);
  const deadlines = new Deadlines(options.timeouts, modelId, (error) => {
    guard.abort(error);
    stopReading();
  });
  signal?.addEventListener('abort', stopReading, { once: true });
  /** Why reading stopped early, if it did: the caller's abort first, then a timeout. */
  const stoppedEarly = (): Error | undefined =>
    signal?.aborted ? abortedError(signal) : deadlines.fired;

  let text = '';
  let usage = { inputTokens: 0, outputTokens: 0 };
  let finishReason: string | undefined;
  const maxChars = options.maxAnswerChars ?? Infinity;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const part: Part = next.value;
      // The SDK's own opening parts come before the model has said anything.
      if (part.type !== 'start' && part.type !== 'start-step') deadlines.partArrived();
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
        throw stoppedEarly() ?? new ModelAbortError();
      } else if (part.type === 'error') {
        const early = stoppedEarly();
        if (early) throw early;
        if (isAbortError(part.error)) throw new ModelAbortError(undefined, { cause: part.error });
        throw toModelError(modelId, part.error);
      }
    }
    const early = stoppedEarly();
    if (early) throw early;
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
    const early = stoppedEarly();
    if (early) throw early;
    if (error instanceof ModelTimeoutError || error instanceof ModelError) throw error;
    if (isAbortError(error)) throw error;
    throw toModelError(modelId, error);
  } finally {
    deadlines.clear();
    signal?.removeEventListener('abort', stopReading);
    stopReading();
  }
}

/**
 * The timeouts of a model stream: first byte, then idle between parts, within
 * the total. Two timers for the whole stream; a part only refreshes one.
 */
class Deadlines {
  /** The timeout that fired, if one did. */
  fired: ModelTimeoutError | undefined;
  private partTimer: NodeJS.Timeout | undefined;
  private readonly totalTimer: NodeJS.Timeout | undefined;
  private seenPart = false;

  constructor(
    private readonly timeouts: ModelTimeouts | undefined,
    private readonly modelId: string,
    private readonly onFire: (error: ModelTimeoutError) => void,
  ) {
    if (!timeouts) return;
    this.totalTimer = setTimeout(() => this.fire('totalMs'), timeouts.totalMs);
    this.partTimer = setTimeout(() => this.fire('firstByteMs'), timeouts.firstByteMs);
  }

  /** The model sent a part: the wait for the next starts again. */
  partArrived(): void {
    if (!this.timeouts || this.fired) return;
    if (this.seenPart) {
      this.partTimer?.refresh();
      return;
    }
    this.seenPart = true;
    clearTimeout(this.partTimer);
    this.partTimer = setTimeout(() => this.fire('idleMs'), this.timeouts.idleMs);
  }

  clear(): void {
    clearTimeout(this.partTimer);
    clearTimeout(this.totalTimer);
  }

  private fire(which: keyof ModelTimeouts): void {
    if (this.fired) return;
    this.fired = new ModelTimeoutError(which, this.modelId, this.timeouts![which]);
    this.clear();
    this.onFire(this.fired);
  }
}
