/**
 * A client that hangs up on a stream leaves nothing behind. The SDK goes on
 * iterating a stream whose client has gone, so the harness ends it itself:
 * otherwise each abandoned subscription to an idle task lives, and buffers
 * every later event of the task, for as long as the server runs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rest, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({ config: { offline: { latencyMs: 20 } } });
});
afterAll(() => harness.stop());

const newTask = async () =>
  (await rpc(harness.url, 'SendMessage', { message: userText('/title hang-up') })).body.result.task
    .id as string;
const openSubscriptions = (taskId: string) => harness.harness.turns.events.count(taskId);
const closed = (taskId: string) =>
  waitFor(async () => (openSubscriptions(taskId) === 0 ? true : undefined), 'no subscription');

it.each(['JSON-RPC', 'HTTP+JSON'])(
  'SubscribeToTask over %s: hanging up on an idle task closes its subscription',
  async (binding) => {
    const taskId = await newTask();
    for (let i = 0; i < 5; i++) {
      const events =
        binding === 'JSON-RPC'
          ? (await rpcStream(harness.url, 'SubscribeToTask', { id: taskId })).events
          : (await rest(harness.url, `/tasks/${taskId}:subscribe`)).events!;
      expect(await events.next()).toBeDefined();
      await events.cancel();
    }
    await closed(taskId);
    // A later turn reaches nobody who left, and the task still works.
    const answered = await rpc(harness.url, 'SendMessage', {
      message: userText('still there?', { taskId }),
    });
    expect(answered.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(openSubscriptions(taskId)).toBe(0);
  },
);

it('a streaming turn whose client hangs up runs to its end, is stored, and leaves no subscription', async () => {
  const taskId = await newTask();
  const { events } = await rpcStream(harness.url, 'SendStreamingMessage', {
    message: userText('a turn nobody waits for', { taskId }),
  });
  expect(await events.next()).toBeDefined();
  await events.cancel();
  await closed(taskId);
  const task = await waitFor(async () => {
    const t = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
    return t.status.state === 'TASK_STATE_INPUT_REQUIRED' ? t : undefined;
  }, 'the turn to end');
  expect(task.status.message.parts[0].text).toContain('You said: a turn nobody waits for');
});

it('a subscription still open keeps getting events', async () => {
  const taskId = await newTask();
  const { events } = await rpcStream(harness.url, 'SubscribeToTask', { id: taskId });
  expect((await events.next()).result.task.id).toBe(taskId);
  await rpc(harness.url, 'SendMessage', {
    message: userText('/title still listening', { taskId }),
  });
  expect((await events.next()).result.statusUpdate.metadata).toEqual({ command: 'title' });
  expect(openSubscriptions(taskId)).toBe(1);
  await events.cancel();
  await closed(taskId);
});
