import type { Message } from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { withoutCommands } from 'a2a-commands';
import type { ContextSeed } from 'a2a-commands/server';
import { settingsOf, withSettings } from '../settings.js';
import type { HarnessTaskStore } from '../store/index.js';

/**
 * SEMANTICS §10: a new task in a context that already has the caller's tasks
 * continues that context's conversation. It starts with what the model of the
 * context's most recently active task would see (so after its /clear), and
 * that task's model and system prompt. A context of another owner is not
 * found, as a foreign task is not. Undefined for a context with no tasks.
 */
export async function continueContext(
  store: HarnessTaskStore,
  contextId: string,
  taskId: string,
  context: ServerCallContext,
): Promise<ContextSeed | undefined> {
  const latest = await store.latestTaskInContext(contextId, context);
  if (latest === undefined) return undefined;
  if (latest === 'foreign') throw new TaskNotFoundError(`Context not found: ${contextId}`);
  const settings = settingsOf(latest.metadata);
  const history = await store.loadHistory(latest.id, context, { from: settings.contextStart });
  // Notes stay: the model never sees them, but they pair each failed turn with its message.
  const conversation: Message[] = withoutCommands(history).map((message) => ({
    ...message,
    taskId,
    contextId,
  }));
  return {
    metadata: withSettings({}, { model: settings.model, system: settings.system }),
    history: conversation,
  };
}
