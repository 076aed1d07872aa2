/**
 * A store error inside a model turn ("driver has
 * already been destroyed" while the database closes) reached the page as the
 * turn's note, as if the model had said it. Only the model's own failures are
 * told as they are; the store's end the turn with the generic note, and the
 * details go to the log.
 */
import { TaskState, type SendMessageRequest } from '@a2a-js/sdk';
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

const INTERNAL = 'driver has already been destroyed';

/** A store whose history reads fail, as every read does once the database is closing. */
class ClosingStore extends HarnessTaskStore {
  override loadHistory(): never {
    throw new Error(INTERNAL);
  }
}

let database: HarnessDatabase;
let handler: TurnHandler;
const logged: string[] = [];

beforeAll(async () => {
  database = await openTestDatabase('sqlite');
  const store = new ClosingStore(database.db);
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
  const turns = new TurnLifecycle({
    store,
    catalog: stubCatalog(),
    events: new TaskEvents(),
    logger,
  });
  handler = new TurnHandler({
    store,
    agentCard: async () => baseAgentCard('http://127.0.0.1'),
    turns,
  });
});
afterAll(() => database.close());

function request(text: string): SendMessageRequest {
  const message = newMessage({ role: USER, parts: [textPart(text)] });
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

it('the turn ends with the generic note, not the store’s words, and the log has them', async () => {
  const result = await handler.sendMessage(request('hello'), new ServerCallContext());
  if (!('status' in result)) throw new Error('expected a task');
  expect(result.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const note = result.status?.message?.parts[0]?.content;
  expect(note).toEqual({ $case: 'text', value: TURN_FAILED_NOTE });
  expect(JSON.stringify(result)).not.toContain(INTERNAL);
  expect(logged.some((line) => line.includes(INTERNAL))).toBe(true);
});
