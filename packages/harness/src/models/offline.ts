import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
  SharedV3Warning,
} from '@ai-sdk/provider';
import { ModelAbortError } from './errors.js';

/** The provider name of the built-in model that needs no network. */
export const OFFLINE_PROVIDER = 'offline';
/** The models of the offline provider (ids without the `offline/` prefix). */
export const OFFLINE_MODELS: readonly string[] = ['echo'];
/** `offline/echo`: the fallback default model. */
export const OFFLINE_DEFAULT_MODEL = `${OFFLINE_PROVIDER}/echo`;

export interface OfflineModelOptions {
  /** Simulated delay before each streamed token, in ms; 0 (the default) streams at once. */
  latencyMs?: number;
}

const STOP: LanguageModelV3FinishReason = { unified: 'stop', raw: 'stop' };

/** Words of a text: the offline model's notion of a token. */
export function countWords(text: string): number {
  const words = text.match(/\S+/g);
  return words ? words.length : 0;
}

/** Splits `text` into word-sized pieces that concatenate back to exactly `text`. */
export function wordDeltas(text: string): string[] {
  const pieces = text.match(/\s*\S+\s*/g);
  return pieces ?? (text === '' ? [] : [text]);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function promptText(prompt: LanguageModelV3Prompt): string {
  const texts: string[] = [];
  for (const message of prompt) {
    if (message.role === 'system') texts.push(message.content);
    else for (const part of message.content) if (part.type === 'text') texts.push(part.text);
  }
  return texts.join(' ');
}

/**
 * The offline model's reply: one paragraph saying it is the offline model, how many
 * messages and whether a system prompt it got, and what the last user message said.
 */
export function offlineReply(prompt: LanguageModelV3Prompt, modelId = 'echo'): string {
  const system = prompt.filter((m) => m.role === 'system');
  const messages = prompt.filter((m) => m.role !== 'system');
  let lastUser: (typeof prompt)[number] | undefined;
  for (const message of messages) if (message.role === 'user') lastUser = message;

  const systemText = system.length > 0 ? 'a system prompt' : 'no system prompt';
  let said = 'There was no user message to echo.';
  if (lastUser && lastUser.role === 'user') {
    const text = lastUser.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    const files = lastUser.content.filter((part) => part.type === 'file').length;
    const attached = files > 0 ? ` (with ${plural(files, 'attachment')})` : '';
    said = text ? `You said: ${text}${attached}` : `Your last message had no text${attached}.`;
  }
  return (
    `This is the offline model (${OFFLINE_PROVIDER}/${modelId}); no real model was called. ` +
    `I got ${plural(messages.length, 'message')} and ${systemText}. ${said}`
  );
}

function usageOf(input: number, output: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function warningsFor(options: LanguageModelV3CallOptions): SharedV3Warning[] {
  return options.tools && options.tools.length > 0
    ? [{ type: 'unsupported', feature: 'tools', details: 'the offline model never calls tools' }]
    : [];
}

function abortErrorOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new ModelAbortError('the offline model was aborted', { cause: reason });
}

/** Waits `ms`, rejecting with an abort error as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortErrorOf(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortErrorOf(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A deterministic AI SDK language model (spec v3) that needs no network: it echoes its
 * prompt back, streaming one word per text delta, and counts words as tokens.
 */
export class OfflineLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  private readonly latencyMs: number;

  constructor(modelId = 'echo', options: OfflineModelOptions = {}) {
    this.modelId = modelId;
    const latency = options.latencyMs ?? 0;
    this.latencyMs = Number.isFinite(latency) && latency > 0 ? latency : 0;
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const text = offlineReply(options.prompt, this.modelId);
    const deltas = wordDeltas(text);
    await sleep(this.latencyMs * deltas.length, options.abortSignal);
    return {
      content: [{ type: 'text', text }],
      finishReason: STOP,
      usage: usageOf(countWords(promptText(options.prompt)), deltas.length),
      response: { id: `offline-${Date.now()}`, modelId: this.modelId, timestamp: new Date() },
      warnings: warningsFor(options),
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) throw abortErrorOf(signal);
    const text = offlineReply(options.prompt, this.modelId);
    const deltas = wordDeltas(text);
    const inputTokens = countWords(promptText(options.prompt));
    const latencyMs = this.latencyMs;
    const modelId = this.modelId;
    const textId = '0';

    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: warningsFor(options) },
      { type: 'response-metadata', id: `offline-${Date.now()}`, modelId, timestamp: new Date() },
      { type: 'text-start', id: textId },
    ];
    let index = 0;
    let finished = false;
    let onAbort: (() => void) | undefined;

    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        if (signal) {
          onAbort = () => {
            if (finished) return;
            finished = true;
            controller.error(abortErrorOf(signal));
          };
          signal.addEventListener('abort', onAbort, { once: true });
        }
      },
      async pull(controller) {
        if (finished) return;
        if (index < deltas.length) {
          try {
            await sleep(latencyMs, signal);
          } catch {
            return; // the abort listener has already errored the stream
          }
          if (finished) return;
          controller.enqueue({ type: 'text-delta', id: textId, delta: deltas[index++] ?? '' });
          return;
        }
        finished = true;
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        controller.enqueue({ type: 'text-end', id: textId });
        controller.enqueue({
          type: 'finish',
          finishReason: STOP,
          usage: usageOf(inputTokens, deltas.length),
        });
        controller.close();
      },
      cancel() {
        finished = true;
        if (onAbort) signal?.removeEventListener('abort', onAbort);
      },
    });
    return { stream };
  }
}

/** The offline model `offline/<modelId>` (default `offline/echo`). */
export function createOfflineModel(
  modelId = 'echo',
  options: OfflineModelOptions = {},
): OfflineLanguageModel {
  return new OfflineLanguageModel(modelId, options);
}
