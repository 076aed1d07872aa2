/**
 * Model answers stream on a worker thread by default, so the thread
 * serving requests only sees grouped chunks; `turns.modelWorker: false` keeps
 * them on the serving thread. Both give the same turn, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, rpcStream, userText } from 'a2a-testing/http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let onWorker: TestHarness;
let onServingThread: TestHarness;
beforeAll(async () => {
  onWorker = await startHarness({ config: { offline: { latencyMs: 2 } } });
  onServingThread = await startHarness({
    config: { offline: { latencyMs: 2 }, turns: { modelWorker: false } },
  });
});
afterAll(async () => {
  await onWorker.stop();
  await onServingThread.stop();
});

async function answerOf(harness: TestHarness): Promise<{ text: string; chunks: string[] }> {
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText('same words') });
  const task = body.result.task;
  expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  const { events } = await rpcStream(harness.url, 'SendStreamingMessage', {
    message: userText('and again', { taskId: task.id }),
  });
  const chunks: string[] = [];
  for (const event of await events.rest()) {
    const update = event.result?.artifactUpdate;
    if (update) chunks.push(update.artifact.parts.map((p: any) => p.text ?? '').join(''));
  }
  return { text: chunks.join(''), chunks };
}

describe('where answers stream', () => {
  it('a worker thread and the serving thread give the same answer, chunked alike', async () => {
    const a = await answerOf(onWorker);
    const b = await answerOf(onServingThread);
    expect(a.text).toBe(b.text);
    expect(a.text).toContain('You said: and again');
    expect(a.chunks.at(-1)).toBe('');
  });
});
