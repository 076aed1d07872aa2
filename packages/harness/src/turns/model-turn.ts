import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskHead } from 'a2a-commands/server';
import type { Logger } from 'pino';
import { secondsSince, type HarnessMetrics } from '../metrics/harness-metrics.js';
import type { ModelCatalog } from '../models/catalog.js';
import { InLoopModelStreams, type ModelStreams } from '../models/model-streams.js';
import { requestLog } from '../request-scope.js';
import { settingsOf } from '../settings.js';
import type { HarnessTaskStore } from '../store/index.js';
import { modelContext } from './model-context.js';
import type { TaskEvents } from './task-events.js';
import { abortReasonOf, type Turn } from './turn.js';
import { endingAfterAbort, type TurnEnding } from './turn-endings.js';
import { DEFAULT_TURN_OPTIONS, type TurnOptions } from './turn-options.js';
import { answerChunk } from './turn-events.js';

export interface ModelTurnDeps {
  /** Told of the turn's first token and of a failed model call. */
  metrics?: Pick<HarnessMetrics, 'firstToken' | 'modelError'>;
  store: HarnessTaskStore;
  catalog: ModelCatalog;
  /** Where answers stream; on this thread when absent. */
  streams?: ModelStreams;
  events: TaskEvents;
  logger: Logger;
  options?: TurnOptions;
}

/**
 * The model part of a turn: the task's settings and context in, the answer
 * streamed to the task's open streams as artifact chunks, and how it ended
 * out. It writes nothing: the lifecycle stores the ending, or leaves it to
 * whoever aborted the turn (`writerOf`).
 */
export async function streamAnswer(
  deps: ModelTurnDeps,
  turn: Turn,
  head: TaskHead,
  context: ServerCallContext,
): Promise<TurnEnding> {
  const { store, catalog, events, logger, metrics } = deps;
  const started = process.hrtime.bigint();
  const { taskId, turnId } = turn;
  const task = { id: taskId, contextId: head.contextId };
  const options = deps.options ?? DEFAULT_TURN_OPTIONS;
  // What the turn's open streams were sent: the answer so far, kept when it is stopped.
  let published = '';
  const publish = (text: string, first: boolean) => {
    // Once aborted, the answer so far is what whoever ends the turn stores: nothing is added to it.
    if (turn.abort.signal.aborted) return;
    if (first) metrics?.firstToken(secondsSince(started));
    published += text;
    events.publish(taskId, {
      event: answerChunk(task, turnId, text, { first, last: false }),
      turnId,
      final: false,
    });
  };
  const settings = settingsOf(head.metadata);
  const modelId = settings.model ?? (await catalog.defaultModelId());
  // Read before the model call: a store error ("driver has already been destroyed"
  // while the database closes) is the server's, not the model's, so it must not
  // become the turn's note; the lifecycle ends the turn with the generic one.
  // Read whole, once: what a /clear left out (`before`) may hold the question of an answer
  // stored after it. History is numbered from 0 without gaps, so the context start is an index.
  const all = await store.loadHistory(taskId, context);
  const start = settings.contextStart ?? 0;
  let history = all.slice(start);
  let before = all.slice(0, start);
  if (!history.some((m) => m.messageId === turnId)) {
    // Queued before a /clear that now leaves it out: it starts the fresh context alone.
    history = before.filter((m) => m.messageId === turnId);
    before = [];
  }
  try {
    const streams = deps.streams ?? new InLoopModelStreams(catalog);
    const result = await streams.stream(
      {
        modelId,
        system: settings.system,
        messages: modelContext(history, turnId, before),
        timeouts: options,
        maxAnswerChars: options.answerChars,
        chunking: options,
      },
      turn.abort.signal,
      publish,
    );
    if (published !== '') {
      events.publish(taskId, {
        event: answerChunk(task, turnId, '', { first: false, last: true }),
        turnId,
        final: false,
      });
    }
    return { kind: 'finished', text: result.text, usage: result.usage, cut: result.cut };
  } catch (error) {
    // An aborted turn ends as its abort says, whatever the model call threw as it was cut off.
    const aborted = abortReasonOf(turn);
    if (aborted) return endingAfterAbort(aborted, published);
    const reason = error instanceof Error ? error.message : String(error);
    requestLog(context, logger).warn({ taskId, modelId, err: reason }, 'model turn failed');
    metrics?.modelError(providerOf(modelId, catalog));
    return { kind: 'model-error', reason };
  }
}

/** The provider part of a model id; `unknown` for one no provider has, so labels stay few. */
function providerOf(modelId: string, catalog: ModelCatalog): string {
  const provider = modelId.slice(0, Math.max(0, modelId.indexOf('/')));
  return catalog.providers().includes(provider) ? provider : 'unknown';
}
