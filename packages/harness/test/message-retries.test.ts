/**
 * SEMANTICS §8 over real HTTP on both stores: (task, messageId) names one
 * message. A copy sent again gets the first one's outcome, and nothing runs
 * or is stored twice; a different message under a used id is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { storeKinds, testDatabaseUrl } from 'a2a-testing/stores';

const textOf = (message: any): string =>
  (message?.parts ?? []).map((part: any) => part.text ?? '').join('');

describe.each(storeKinds)('on %s', (kind) => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({
      config: { offline: { latencyMs: 2 } },
      databaseUrl: testDatabaseUrl(kind),
    });
  });
  afterAll(() => harness.stop());

  const send = (message: unknown) => rpc(harness.url, 'SendMessage', { message });
  const history = async (taskId: string) =>
    (await rpc(harness.url, 'GetTask', { id: taskId })).body.result.history as any[];
  const newTask = async () =>
    (await send(userText('/title retries'))).body.result.task.id as string;

  it('a command sent again gets its stored reply: it does not run twice (one sub-task, one reply)', async () => {
    const taskId = await newTask();
    const spawn = userText('/spawn a side job', { taskId });
    const first = (await send(spawn)).body.result.task;
    const again = (await send(spawn)).body.result.task;
    expect(again.status.message.messageId).toBe(first.status.message.messageId);
    expect(again.status.message.metadata).toEqual(first.status.message.metadata);
    const stored = await history(taskId);
    expect(stored.filter((m) => m.messageId === spawn.messageId)).toHaveLength(1);
    expect(stored.filter((m) => m.metadata?.command === 'spawn')).toHaveLength(2);
    const tasks = (await send(userText('/tasks', { taskId }))).body.result.task.status.message;
    const listed = tasks.parts.find((p: any) => 'data' in p).data.tasks;
    expect(listed).toHaveLength(2);
  });

  it('an ordinary message sent three times runs one turn, and each copy gets its answer', async () => {
    const taskId = await newTask();
    const hello = userText('hello once', { taskId });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await send(hello)).body.result.task);
    for (const task of answers) {
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(task.status.message.messageId).toBe(answers[0].status.message.messageId);
    }
    const stored = await history(taskId);
    expect(stored.filter((m) => m.role === 'ROLE_USER' && textOf(m) === 'hello once')).toHaveLength(
      1,
    );
    expect(stored.filter((m) => textOf(m).endsWith('You said: hello once'))).toHaveLength(1);
  });

  it('copies sent together while the first is still running share its one turn', async () => {
    const taskId = await newTask();
    const message = userText('all at once', { taskId });
    const results = await Promise.all(Array.from({ length: 5 }, () => send(message)));
    const ids = new Set(results.map((r) => r.body.result?.task.status.message.messageId));
    expect(ids.size).toBe(1);
    const stored = await history(taskId);
    expect(stored.filter((m) => textOf(m).endsWith('You said: all at once'))).toHaveLength(1);
  });

  it('a streamed copy of a command gets the snapshot, then the stored reply', async () => {
    const taskId = await newTask();
    const status = userText('/status', { taskId });
    const first = (await send(status)).body.result.task;
    const { events } = await rpcStream(harness.url, 'SendStreamingMessage', { message: status });
    const [snapshot, update] = (await events.rest()).map(resultOf);
    expect(snapshot.task.id).toBe(taskId);
    expect(update.statusUpdate.metadata).toEqual({ command: 'status' });
    expect(update.statusUpdate.status.message.messageId).toBe(first.status.message.messageId);
    expect((await history(taskId)).filter((m) => m.metadata?.command === 'status')).toHaveLength(2);
  });

  it('a different message under a used id is refused, naming the id, and nothing is stored', async () => {
    const taskId = await newTask();
    const original = userText('the first text', { taskId });
    await send(original);
    const before = await history(taskId);
    const clash = { ...original, parts: [{ text: 'another text' }] };
    const refused = await send(clash);
    expect(refused.body.error?.message).toContain(original.messageId);
    const commandClash = { ...original, parts: [{ text: '/status' }] };
    expect((await send(commandClash)).body.error?.message).toContain(original.messageId);
    expect(await history(taskId)).toEqual(before);
  });
});

describe.each(storeKinds)('a message that only claims to be a command, on %s', (kind) => {
  let harness: TestHarness;
  beforeAll(async () => {
    // Slow enough that the messages below wait behind the first turn.
    harness = await startHarness({
      config: { offline: { latencyMs: 15 } },
      databaseUrl: testDatabaseUrl(kind),
    });
  });
  afterAll(() => harness.stop());

  it('is an ordinary message: it reaches the model, and a retry gets its own answer, never another message', async () => {
    const send = (message: unknown, returnImmediately = false) =>
      rpc(harness.url, 'SendMessage', { message, configuration: { returnImmediately } });
    const first = (await send(userText('the first question'), true)).body.result.task;
    const taskId = first.id as string;
    const claiming = {
      ...userText('the second question', { taskId }),
      metadata: { command: 'help' },
    };
    await send(claiming, true);
    await send(userText('the third question', { taskId }), true);
    await waitFor(async () => {
      const task = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
      const answers = task.history.filter((m: any) => m.role === 'ROLE_AGENT');
      return task.status.state === 'TASK_STATE_INPUT_REQUIRED' && answers.length === 3
        ? true
        : undefined;
    }, 'three answers');
    const again = (await send(claiming)).body.result.task;
    expect(again.status.message.role).toBe('ROLE_AGENT');
    expect(textOf(again.status.message)).toContain('You said: the second question');
  });
});
