import { Role, TaskState, type Message } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { HarnessTaskStore, openDatabase } from '../../packages/harness/src/store/index.js';

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
      messageId: `seed-${i}`,
      taskId: id,
      contextId,
      role: i % 2 === 0 ? Role.ROLE_USER : Role.ROLE_AGENT,
      parts: [
        {
          content: {
            $case: 'text',
            value: `message ${i} of a long conversation, about as long as a chat line`,
          },
          mediaType: 'text/plain',
          filename: '',
          metadata: undefined,
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
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
