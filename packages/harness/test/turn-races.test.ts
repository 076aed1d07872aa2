/**
 * Races the soak found between turns, their results and CancelTask, pinned on
 * both stores: a blocking SendMessage answers with its own turn's end, and a
 * canceled task stays canceled whatever was in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText, waitFor } from 'a2a-testing/http';
import { storeKinds, testDatabaseUrl } from 'a2a-testing/stores';

describe.each(storeKinds)('on %s', (kind) => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({
      config: { offline: { latencyMs: 1 } },
      databaseUrl: testDatabaseUrl(kind),
    });
  });
  afterAll(() => harness.stop());

  const send = (text: string, ids: { taskId?: string } = {}) =>
    rpc(harness.url, 'SendMessage', { message: userText(text, ids) });
  const newTask = async () => (await send('/title races')).body.result.task.id as string;

  it('SendMessage turns from many clients on one task each return their own answer, waiting for input', async () => {
    const taskId = await newTask();
    const client = async (c: number) => {
      const seen = [];
      for (let i = 0; i < 6; i++) {
        const text = `client ${c} turn ${i}`;
        const task = (await send(text, { taskId })).body.result.task;
        seen.push({ text, state: task.status.state, answer: task.history[1]?.parts[0].text ?? '' });
      }
      return seen;
    };
    const seen = (await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)))).flat();
    const wrong = seen.filter(
      (s) => s.state !== 'TASK_STATE_INPUT_REQUIRED' || !s.answer.endsWith(`You said: ${s.text}`),
    );
    expect(wrong).toEqual([]);
  });

  it('a message racing CancelTask never brings the task back: it stays canceled', async () => {
    const tasks = await Promise.all(Array.from({ length: 20 }, newTask));
    const sent = await Promise.all(
      tasks.flatMap((taskId) => [
        send(`racing ${taskId}`, { taskId }),
        rpc(harness.url, 'CancelTask', { id: taskId }),
      ]),
    );
    // A message that got in was answered before the cancel, or ends canceled: never left working.
    const accepted = sent.filter((response, i) => i % 2 === 0 && response.body.result);
    for (const { body } of accepted)
      expect(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_CANCELED']).toContain(
        body.result.task.status.state,
      );
    // Turns that slipped in before the cancel have ended, and had their chance to write.
    await waitFor(async () => {
      const busy = await Promise.all(tasks.map((id) => harness.harness.turns.scheduler.busy(id)));
      return busy.includes(true) ? undefined : true;
    }, 'the turns to end');
    const states = await Promise.all(
      tasks.map(async (id) => (await rpc(harness.url, 'GetTask', { id })).body.result.status.state),
    );
    expect(states.filter((s) => s !== 'TASK_STATE_CANCELED')).toEqual([]);
  });
});
