/**
 * Rate limits charge what runs, as the command path decided it: a command
 * that starts a turn (`/spawn`) spends a turn, and a message the SDK reads as
 * data is a turn, whatever a stray `text` field beside its data says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { RATE_LIMITED_REPLY_CODE } from '../src/serve/rate-limits.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB}`)),
    // One token a minute: what is spent here stays spent for the test.
    config: {
      limits: { commandsPerMinute: 1, commandBurst: 10, turnsPerMinute: 1, turnBurst: 2 },
    },
  });
});
afterAll(() => harness.stop());

async function subtaskCount(key: string): Promise<number> {
  const { body } = await rpc(harness.url, 'ListTasks', {}, as(key));
  const tasks = body.result.tasks as { metadata?: Record<string, unknown> }[];
  return tasks.filter((task) => JSON.stringify(task.metadata ?? {}).includes('"parent"')).length;
}

describe('/spawn', () => {
  it('spends the turn allowance: past it, the reply refuses and no sub-task is made', async () => {
    const replies = [];
    for (const prompt of ['one', 'two', 'three']) {
      const { body } = await rpc(
        harness.url,
        'SendMessage',
        { message: userText(`/spawn ${prompt}`) },
        as(ALICE),
      );
      const parts = body.result.task.status.message.parts as { data?: Record<string, any> }[];
      replies.push(parts.find((part) => part.data)?.data);
    }
    expect(replies[0]?.task_ref).toEqual(expect.any(String));
    expect(replies[1]?.task_ref).toEqual(expect.any(String));
    expect(replies[2]?.task_ref).toBeUndefined();
    expect(replies[2]?.error?.code).toBe(RATE_LIMITED_REPLY_CODE);
    expect(await subtaskCount(ALICE)).toBe(2);
    // The turns are spent: an ordinary message is refused too.
    const turn = await rpc(harness.url, 'SendMessage', { message: userText('hello') }, as(ALICE));
    expect(turn.status).toBe(429);
  });
});

describe('A2A 0.3 data part with a stray text field', () => {
  it('is a turn, charged as one: the third is refused', async () => {
    const send = () =>
      fetch(`${harness.url}/a2a/jsonrpc`, {
        method: 'POST',
        // No A2A-Version header: 0.3.
        headers: { 'content-type': 'application/json', ...as(BOB).headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              messageId: crypto.randomUUID(),
              role: 'user',
              parts: [{ kind: 'data', data: { note: 'not a command' }, text: '/help' }],
            },
          },
        }),
      });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const response = await send();
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 429]);
    // Bob's commands were not charged for them.
    const help = await rpc(harness.url, 'SendMessage', { message: userText('/help') }, as(BOB));
    expect(help.status).toBe(200);
  });
});
