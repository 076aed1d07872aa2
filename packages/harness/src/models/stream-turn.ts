import { streamText } from 'ai';
import type { LanguageModel, ModelMessage, TextStreamPart, ToolSet } from 'ai';
import { ModelAbortError, isAbortError, toModelError } from './errors.js';

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
}

export interface ModelTurnResult {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
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

  const result = streamText({
    model,
    system: system && system.trim() !== '' ? system : undefined,
    messages,
    abortSignal: signal,
    maxRetries: options.maxRetries ?? 0,
    // The default handler logs the whole error, request body included. Errors are
    // handled below from the `error` parts of the stream, so nothing is logged here.
    onError: () => {},
  });

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
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), aborted]);
      if (next.done) break;
      const part: Part = next.value;
      if (part.type === 'text-delta') {
        if (part.text) {
          text += part.text;
          onDelta(part.text);
        }
      } else if (part.type === 'finish') {
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
    return { text, usage };
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal);
    if (isAbortError(error)) throw error;
    throw toModelError(modelId, error);
  } finally {
    if (stopOnAbort) signal?.removeEventListener('abort', stopOnAbort);
    reader.cancel().catch(() => undefined);
  }
}
