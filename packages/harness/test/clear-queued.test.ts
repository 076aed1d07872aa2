/**
 * /clear while a turn runs and another waits behind it: the running turn keeps
 * its context, and the waiting one still answers its own message (found by the soak).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({ config: { offline: { latencyMs: 20 } } });
});
afterAll(() => harness.stop());

const send = (text: string, taskId?: string) =>
  rpc(harness.url, 'SendMessage', { message: userText(text, taskId ? { taskId } : {}) });
const answerOf = (task: any) => task.status.message.parts[0].text as string;

it('a message queued before /clear is answered on its own, not lost from the model context', async () => {
  const taskId = (await send('an earlier question')).body.result.task.id;
  const running = await rpcStream(harness.url, 'SendStreamingMessage', {
    message: userText('the running one', { taskId }),
  });
  expect(resultOf(await running.events.next()).task.id).toBe(taskId);
  const queued = send('the queued one', taskId);
  await waitFor(async () => {
    const task = (await rpc(harness.url, 'GetTask', { id: taskId })).body.result;
    return task.history.some((m: any) => m.parts[0].text === 'the queued one') || undefined;
  }, 'the queued message to be stored before /clear');
  const cleared = (await send('/clear', taskId)).body.result.task;
  expect(answerOf(cleared)).toContain('already running keeps the context');

  const runningAnswer = resultOf((await running.events.rest()).at(-1)).statusUpdate.status.message;
  expect(runningAnswer.parts[0].text).toContain('You said: the running one');
  const answer = answerOf((await queued).body.result.task);
  expect(answer).toContain('You said: the queued one');
  expect(answer).toContain('I got 1 message');
});

it('a message queued after /clear, while the turn before it still runs, answers its own message', async () => {
  const taskId = (await send('an earlier question')).body.result.task.id;
  const running = await rpcStream(harness.url, 'SendStreamingMessage', {
    message: userText('the running one', { taskId }),
  });
  expect(resultOf(await running.events.next()).task.id).toBe(taskId);
  await send('/clear', taskId);
  const queued = send('queued after the clear', taskId);
  const later = send('queued after that', taskId);

  await running.events.rest();
  const answer = answerOf((await queued).body.result.task);
  expect(answer).toContain('You said: queued after the clear');
  expect(answer).toContain('I got 1 message');
  expect(answerOf((await later).body.result.task)).toContain('You said: queued after that');
});
