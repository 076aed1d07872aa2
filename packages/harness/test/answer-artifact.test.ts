/**
 * SEMANTICS §4: a turn's answer stays the task's `answer` artifact after the
 * turn ends, so a client that reads a finished task's artifacts finds it. Over
 * real HTTP, on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rest, rpc, userText } from 'a2a-testing/http';
import { storeKinds, testDatabaseUrl } from 'a2a-testing/stores';

const textOf = (holder: any): string =>
  (holder?.parts ?? []).map((part: any) => part.text ?? '').join('');

describe.each(storeKinds)('on %s', (kind) => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({ databaseUrl: testDatabaseUrl(kind) });
  });
  afterAll(() => harness.stop());

  const getTask = async (id: string, historyLength?: number) =>
    (await rpc(harness.url, 'GetTask', { id, historyLength })).body.result;

  it('keeps the answer as the artifact once the turn has ended, through later commands', async () => {
    const sent = await rpc(harness.url, 'SendMessage', { message: userText('Hello there') });
    const task = sent.body.result.task;
    const answer = textOf(task.status.message);
    expect(answer).toContain('You said: Hello there');

    const finished = await getTask(task.id, 0);
    expect(finished.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(finished.artifacts).toHaveLength(1);
    expect(finished.artifacts[0].name).toBe('answer');
    expect(textOf(finished.artifacts[0])).toBe(answer);

    // A command's reply becomes the status message; the answer artifact stays.
    await rpc(harness.url, 'SendMessage', { message: userText('/help', { taskId: task.id }) });
    const afterCommand = await getTask(task.id);
    expect(afterCommand.status.message.metadata.command).toBe('help');
    expect(afterCommand.artifacts.map((a: any) => [a.name, textOf(a)])).toEqual([
      ['answer', answer],
    ]);

    // HTTP+JSON reads the same task the same way.
    const viaRest = await rest(harness.url, `/tasks/${task.id}`);
    expect(viaRest.body.artifacts.map((a: any) => textOf(a))).toEqual([answer]);
  });

  it("the next turn's answer takes its place", async () => {
    const first = (await rpc(harness.url, 'SendMessage', { message: userText('One') })).body.result
      .task;
    await rpc(harness.url, 'SendMessage', { message: userText('Two', { taskId: first.id }) });
    const task = await getTask(first.id);
    expect(task.artifacts).toHaveLength(1);
    expect(textOf(task.artifacts[0])).toContain('You said: Two');
  });
});
