/**
 * A turn that fails outside the model call (a store error, a bug) still ends:
 * input-required with a note, and a final event, so that neither a blocking
 * SendMessage nor a stream waits for it for good.
 */
import { Role, TaskState, type SendMessageRequest } from '@a2a-js/sdk';
import { newMessage, textPart, USER } from 'a2a-commands';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stubCatalog } from '../src/commands/builtins/test-context.js';
import { HarnessTaskStore, type HarnessDatabase } from '../src/store/index.js';
import { TaskEvents } from '../src/turns/task-events.js';
import { TURN_FAILED_NOTE } from '../src/turns/turn-endings.js';
import { TurnHandler } from '../src/turns/turn-handler.js';
import { TurnLifecycle } from '../src/turns/turn-lifecycle.js';
import { baseAgentCard } from '../src/serve/agent-card.js';
import { openTestDatabase } from 'a2a-testing/stores';

let database: HarnessDatabase;
let handler: TurnHandler;
const context = new ServerCallContext();

beforeAll(async () => {
  database = await openTestDatabase('sqlite');
  const store = new HarnessTaskStore(database.db);
  const turns = new TurnLifecycle({
    store,
    catalog: stubCatalog(),
    events: new TaskEvents(),
    logger: pino({ level: 'silent' }),
    streamAnswer: async () => {
      throw new Error('the disk is full');
    },
  });
  handler = new TurnHandler({
    store,
    agentCard: async () => baseAgentCard('http://127.0.0.1'),
    turns,
  });
});
afterAll(() => database.close());

function request(text: string, taskId?: string): SendMessageRequest {
  const message = newMessage({ role: USER, parts: [textPart(text)], taskId });
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

it('SendMessage answers: the task waits for input, with a note saying the turn failed', async () => {
  const result = await handler.sendMessage(request('hello'), context);
  if (!('status' in result)) throw new Error('expected a task');
  expect(result.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const note = result.status?.message?.parts[0]?.content;
  expect(note).toEqual({ $case: 'text', value: TURN_FAILED_NOTE });
  const stored = await handler.getTask(
    { tenant: '', id: result.id, historyLength: undefined },
    context,
  );
  expect(stored.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  expect(stored.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);
});

it('a stream gets its final event, and the task takes the next message', async () => {
  const first = await handler.sendMessage(request('one'), context);
  const taskId = (first as { id: string }).id;
  const events = [];
  for await (const event of handler.sendMessageStream(request('two', taskId), context))
    events.push(event);
  const last = events.at(-1)?.payload;
  expect(last?.$case).toBe('statusUpdate');
  if (last?.$case !== 'statusUpdate') return;
  expect(last.value.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
});
