import { TaskState, type Message } from '@a2a-js/sdk';
import { AGENT, newMessage, textPart, USER } from 'a2a-commands';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { HarnessTaskStore, openDatabase } from 'a2a-harness/internal';

/**
 * Writes tasks with long histories straight into a harness data directory,
 * before the harness starts on it. Returns the task ids, by history length.
 */
export async function seedHistories(
  dataDir: string,
  lengths: number[],
): Promise<Record<number, string>> {
  const database = await openDatabase(`sqlite:${dataDir}/tasks.db`);
  const store = new HarnessTaskStore(database.db);
  // The harness's unauthenticated caller: the SDK scopes tasks by user name.
  const context = new ServerCallContext();
  const ids: Record<number, string> = {};
  for (const length of lengths) {
    const id = crypto.randomUUID();
    const contextId = crypto.randomUUID();
    const history: Message[] = Array.from({ length }, (_, i) => ({
      ...newMessage({
        role: i % 2 === 0 ? USER : AGENT,
        parts: [textPart(`message ${i} of a long conversation, about as long as a chat line`)],
        taskId: id,
        contextId,
      }),
      messageId: `seed-${i}`,
    }));
    await store.create(
      {
        id,
        contextId,
        status: {
          state: TaskState.TASK_STATE_INPUT_REQUIRED,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        history,
        artifacts: [],
        metadata: {},
      },
      context,
    );
    ids[length] = id;
  }
  await database.close();
  return ids;
}
