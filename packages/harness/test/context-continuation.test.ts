/**
 * SEMANTICS §10: a context is a conversation. A new task in a context the
 * caller already has tasks in continues it (the model context of the most
 * recently active task, after its /clear, its model and its system prompt);
 * another owner's context is not found. Over real HTTP, on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';
import { storeKinds, testDatabaseUrl } from 'a2a-testing/stores';

const ADA = 'ada-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';

const textOf = (message: any): string =>
  (message?.parts ?? []).map((part: any) => part.text ?? '').join('');

describe.each(storeKinds)('on %s', (kind) => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({
      databaseUrl: testDatabaseUrl(kind),
      apiKeys: new ApiKeys(parseApiKeyList(`ada=${ADA},bob=${BOB}`)),
    });
  });
  afterAll(() => harness.stop());

  const send = async (key: string, text: string, ids: { taskId?: string; contextId?: string }) =>
    (
      await rpc(
        harness.url,
        'SendMessage',
        { message: userText(text, ids) },
        { headers: { authorization: `Bearer ${key}` } },
      )
    ).body;
  const taskOf = async (text: string, ids: { taskId?: string; contextId?: string } = {}) => {
    const body = await send(ADA, text, ids);
    if (!body.result) throw new Error(`${text}: ${JSON.stringify(body.error)}`);
    return body.result.task;
  };

  it('a new task in the context continues its conversation', async () => {
    const first = await taskOf('My name is Ada.');
    expect(textOf(first.status.message)).toContain('I got 1 message');
    const second = await taskOf('What is my name?', { contextId: first.contextId });
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(textOf(second.status.message)).toContain('I got 3 messages');
    // And the one after that continues the second, the most recently active.
    const third = await taskOf('And again?', { contextId: first.contextId });
    expect(textOf(third.status.message)).toContain('I got 5 messages');
  });

  it("takes the latest task's model and system prompt, and starts after its /clear", async () => {
    const first = await taskOf('Hello.');
    await taskOf('/model offline/echo', { taskId: first.id });
    await taskOf('/system Be brief.', { taskId: first.id });
    const second = await taskOf('Still there?', { contextId: first.contextId });
    expect(textOf(second.status.message)).toContain('I got 3 messages and a system prompt');
    expect(second.metadata['a2a-harness']).toMatchObject({
      model: 'offline/echo',
      system: 'Be brief.',
    });

    await taskOf('/clear', { taskId: second.id });
    const third = await taskOf('Fresh start?', { contextId: first.contextId });
    expect(textOf(third.status.message)).toContain('I got 1 message and a system prompt');
  });

  it('a command with a contextId and no taskId creates its task there, inheriting the same way', async () => {
    const first = await taskOf('Remember the word teal.');
    await taskOf('/system Answer in one line.', { taskId: first.id });
    const made = await taskOf('/help', { contextId: first.contextId });
    expect(made.id).not.toBe(first.id);
    expect(made.contextId).toBe(first.contextId);
    expect(made.status.message.metadata.command).toBe('help');
    expect(made.metadata['a2a-harness']).toMatchObject({ system: 'Answer in one line.' });
    const next = await taskOf('Which word?', { taskId: made.id });
    expect(textOf(next.status.message)).toContain('I got 3 messages and a system prompt');
  });

  it("another owner's context is not found, for messages and commands alike", async () => {
    const first = await taskOf('Private conversation.');
    for (const text of ['Let me in.', '/help']) {
      const body = await send(BOB, text, { contextId: first.contextId });
      expect(body.result).toBeUndefined();
      expect(body.error?.code).toBe(-32001);
      expect(body.error?.message).toBe(`Context not found: ${first.contextId}`);
    }
    // A context nobody has used yet is anyone's to start.
    const fresh = crypto.randomUUID();
    const body = await send(BOB, 'New here.', { contextId: fresh });
    expect(body.result.task.contextId).toBe(fresh);
    expect(textOf(body.result.task.status.message)).toContain('I got 1 message');
  });
});
