/**
 * `/tasks` names a task as the web chat does: its title, or else its
 * first prompt. Over HTTP, against a harness with its real task store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, userText, waitFor } from 'a2a-testing/http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

const send = (text: string, ids: { taskId?: string; contextId?: string } = {}) =>
  rpc(harness.url, 'SendMessage', { message: userText(text, ids) });
const getTask = async (id: string) => (await rpc(harness.url, 'GetTask', { id })).body.result;

describe('/tasks titles', () => {
  it('an untitled task is named by its first prompt; commands before it do not count', async () => {
    const first = (await send('/status')).body.result.task;
    await send('Plan   a weekend\ntrip to the coast', { taskId: first.id });
    await waitFor(async () => {
      const task = await getTask(first.id);
      return task.status.state === 'TASK_STATE_INPUT_REQUIRED' ? task : undefined;
    }, 'the answer');
    const other = (await send('/title Packing list', { contextId: first.contextId })).body.result
      .task;

    const reply = (await send('/tasks', { taskId: other.id })).body.result.task.status.message;
    const data = reply.parts.find((part: any) => 'data' in part).data;
    const titles = Object.fromEntries(data.tasks.map((task: any) => [task.id, task.title]));
    expect(titles).toEqual({
      [first.id]: 'Plan a weekend trip to the coast',
      [other.id]: 'Packing list',
    });
  });
});
