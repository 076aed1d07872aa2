import { TaskState, type TaskStatus } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { Logger } from 'pino';
import { secondsSince, type HarnessMetrics } from '../metrics/harness-metrics.js';
import { isAbortError, streamModelTurn, type ModelCatalog } from '../models/index.js';
import { noteMessage } from '../notes.js';
import { settingsOf, withSettings } from '../settings.js';
import type { HarnessTaskStore } from '../store/index.js';
import { modelContext } from './model-context.js';
import type { TaskEvents } from './task-events.js';
import { agentMessage, answerChunk, status, statusEvent, TERMINAL_STATES } from './turn-events.js';
import type { Turn } from './turn-queue.js';

export interface TurnRunnerOptions {
  store: HarnessTaskStore;
  catalog: ModelCatalog;
  events: TaskEvents;
  logger: Logger;
  /** Told of each turn's first text and of each failed model call. */
  metrics?: Pick<HarnessMetrics, 'firstToken' | 'modelError'>;
}

/**
 * One model turn: read the task's settings and context, stream the model's
 * answer to the task's open streams, then store the answer and end the turn
 * in input-required. A model error ends it the same way, with the error as
 * the message, so the user can pick another model and try again.
 */
export function turnRunner({ store, catalog, events, logger, metrics }: TurnRunnerOptions) {
  return async function runTurn(turn: Turn, context: ServerCallContext): Promise<void> {
    const started = process.hrtime.bigint();
    const { taskId, turnId } = turn;
    const head = await store.loadHead(taskId, context);
    if (!head || turn.abort.signal.aborted) return;
    const task = { id: taskId, contextId: head.contextId };
    const publish = (event: Parameters<TaskEvents['publish']>[1]['event'], final = false) =>
      events.publish(taskId, { event, turnId, final });

    // A CancelTask that slipped in between this turn's acceptance and its start ends it here.
    if (TERMINAL_STATES.has(head.status?.state ?? 0)) {
      publish(statusEvent(task, head.status!), true);
      return;
    }
    if (head.status?.state !== TaskState.TASK_STATE_WORKING) {
      const started = await store.update(taskId, context, {
        status: (current) => unlessEnded(current, status(TaskState.TASK_STATE_WORKING)),
        alongside: turn.fence,
      });
      if (!started) return;
    }
    publish(statusEvent(task, status(TaskState.TASK_STATE_WORKING)));

    const settings = settingsOf(head.metadata);
    const modelId = settings.model ?? (await catalog.defaultModelId());
    let answer;
    try {
      const model = await catalog.languageModel(modelId);
      let history = await store.loadHistory(taskId, context, { from: settings.contextStart });
      if (!history.some((m) => m.messageId === turnId)) {
        // Queued before a /clear that now leaves it out: it starts the fresh context alone.
        const all = await store.loadHistory(taskId, context);
        history = all.filter((m) => m.messageId === turnId);
      }
      let first = true;
      const result = await streamModelTurn({
        model,
        modelId,
        system: settings.system,
        messages: modelContext(history, turnId),
        signal: turn.abort.signal,
        onDelta: (text) => {
          if (first) metrics?.firstToken(secondsSince(started));
          publish(answerChunk(task, turnId, text, { first, last: false }));
          first = false;
        },
      });
      if (!first) publish(answerChunk(task, turnId, '', { first: false, last: true }));
      answer = {
        message: agentMessage(task, result.text || '(the model returned no text)'),
        usage: result.usage,
      };
    } catch (error) {
      // Cancel and shutdown write their own ending.
      if (turn.abort.signal.aborted && isAbortError(error)) return;
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn({ taskId, modelId, err: reason }, 'model turn failed');
      metrics?.modelError(providerOf(modelId, catalog));
      answer = {
        message: noteMessage(taskId, head.contextId, 'model-error', reason),
        usage: undefined,
      };
    }
    if (turn.abort.signal.aborted) return;

    const ended = await store.update(taskId, context, {
      alongside: turn.fence,
      append: [answer.message],
      status: (current) =>
        unlessEnded(current, status(TaskState.TASK_STATE_INPUT_REQUIRED, answer.message)),
      metadata: (metadata) => {
        const current = settingsOf(metadata);
        if (!answer.usage) return metadata;
        return withSettings(metadata, {
          turns: (current.turns ?? 0) + 1,
          usage: {
            inputTokens: (current.usage?.inputTokens ?? 0) + answer.usage.inputTokens,
            outputTokens: (current.usage?.outputTokens ?? 0) + answer.usage.outputTokens,
          },
        });
      },
    });
    turn.ended = ended?.status;
    if (ended) publish(statusEvent(task, ended.status!), true);
  };
}

/** The provider part of a model id; `unknown` for one no provider has, so labels stay few. */
function providerOf(modelId: string, catalog: ModelCatalog): string {
  const provider = modelId.slice(0, Math.max(0, modelId.indexOf('/')));
  return catalog.providers().includes(provider) ? provider : 'unknown';
}

/** The turn path never reopens a task that CancelTask ended meanwhile. */
function unlessEnded(current: TaskStatus | undefined, next: TaskStatus): TaskStatus | undefined {
  return TERMINAL_STATES.has(current?.state ?? 0) ? current : next;
}
