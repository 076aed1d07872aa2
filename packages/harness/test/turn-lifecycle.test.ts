/**
 * SEMANTICS §4 on a running turn, over real HTTP on both stores: a client
 * that joins mid-answer (GetTask, SubscribeToTask) gets the answer so far,
 * and `/stop` ends the turn at once while the task goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_KEY } from '../src/settings.js';
import { STOPPED_BEFORE_ANSWER } from '../src/turns/turn-endings.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { resultOf, rpc, rpcStream, userText, waitFor, type SseReader } from 'a2a-testing/http';
import { storeKinds, testDatabaseUrl } from 'a2a-testing/stores';

/** A prompt the offline model echoes back word by word: long enough to join in the middle. */
export const longPrompt = (words: number) =>
  Array.from({ length: words }, (_, i) => `.${i + 1}`).join(' ');

const textOf = (message: any): string =>
  (message?.parts ?? []).map((part: any) => part.text ?? '').join('');

/** Reads a stream until `match` says yes; returns every event read. */
export async function readUntil(events: SseReader, match: (result: any) => boolean) {
  const seen: any[] = [];
  for (let event = await events.next(); event !== undefined; event = await events.next()) {
    const result = resultOf(event);
    seen.push(result);
    if (match(result)) return seen;
  }
  throw new Error('the stream ended first');
}

/** A turn streaming a long answer, read up to its first chunk. */
async function streamingTurnOn(url: string, words = 250, taskId?: string) {
  const { events } = await rpcStream(url, 'SendStreamingMessage', {
    message: userText(longPrompt(words), { taskId }),
  });
  const seen = await readUntil(events, (result) => result.artifactUpdate !== undefined);
  const id = seen[0].task?.id ?? taskId;
  return { taskId: id as string, events };
}

/** Joins a running turn with SubscribeToTask: the answer the snapshot and its appends make. */
async function joinedAnswer(url: string, taskId: string) {
  const joined = await rpcStream(url, 'SubscribeToTask', { id: taskId });
  const [first, ...later] = await readUntil(joined.events, isFinalStatus);
  const snapshot = first.task.artifacts?.[0];
  let built = textOf(snapshot);
  const soFar = built;
  for (const result of later) {
    const update = result.artifactUpdate;
    if (!update) continue;
    expect(update.artifact.artifactId).toBe(snapshot?.artifactId);
    expect(update.append).toBe(true);
    built += textOf(update.artifact);
  }
  return { soFar, built, whole: textOf(later.at(-1).statusUpdate.status.message) };
}

const isFinalStatus = (result: any) =>
  result.statusUpdate !== undefined &&
  ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_CANCELED'].includes(result.statusUpdate.status.state);

describe.each(storeKinds)('on %s', (kind) => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({
      config: { offline: { latencyMs: 8 } },
      databaseUrl: testDatabaseUrl(kind),
    });
  });
  afterAll(() => harness.stop());

  const streamingTurn = (words = 250, taskId?: string) =>
    streamingTurnOn(harness.url, words, taskId);

  it('GetTask during a turn carries the answer so far as the answer artifact, which the whole answer starts with', async () => {
    const { taskId, events } = await streamingTurn();
    const task = await waitFor(async () => {
      const { body } = await rpc(harness.url, 'GetTask', { id: taskId, historyLength: 0 });
      return textOf(body.result.artifacts?.[0]).length > 20 ? body.result : undefined;
    }, 'the answer so far');
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    expect(task.artifacts).toHaveLength(1);
    expect(task.artifacts[0].name).toBe('answer');
    const soFar = textOf(task.artifacts[0]);

    const rest = await readUntil(events, isFinalStatus);
    const whole = textOf(rest.at(-1).statusUpdate.status.message);
    expect(whole.startsWith(soFar)).toBe(true);
    expect(whole.length).toBeGreaterThan(soFar.length);
    // Once the turn has ended, the answer is in the history and stays the answer artifact.
    const after = await rpc(harness.url, 'GetTask', { id: taskId });
    expect(after.body.result.artifacts.map((a: any) => [a.name, a.artifactId, textOf(a)])).toEqual([
      ['answer', task.artifacts[0].artifactId, whole],
    ]);
    expect(textOf(after.body.result.history.at(-1))).toBe(whole);
  });

  it('SubscribeToTask during a turn: the snapshot plus the appends that follow it is the whole answer', async () => {
    const { taskId, events } = await streamingTurn();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const { soFar, built, whole } = await joinedAnswer(harness.url, taskId);
    expect(soFar.length).toBeGreaterThan(0);
    expect(built).toBe(whole);
    await events.cancel();
  });

  it('/stop ends the running turn at once: the answer so far stays, marked stopped, the queued message runs, and the task goes on', async () => {
    const { taskId, events } = await streamingTurn(400);
    const queued = await rpc(harness.url, 'SendMessage', {
      message: userText('after the stop', { taskId }),
      configuration: { returnImmediately: true },
    });
    expect(queued.body.error).toBeUndefined();

    const stop = await rpc(harness.url, 'SendMessage', { message: userText('/stop', { taskId }) });
    const reply = stop.body.result.task;
    expect(reply.status.message.metadata).toEqual({ command: 'stop' });
    expect(reply.status.state).toBe('TASK_STATE_WORKING');
    expect(textOf(reply.status.message)).toContain('Stopped the answer in progress');

    // The stopped turn's stream ends with what it wrote so far, marked stopped.
    const rest = await readUntil(events, isFinalStatus);
    const final = rest.at(-1).statusUpdate.status;
    expect(final.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const stopped = final.message;
    expect(stopped.metadata?.[SETTINGS_KEY]).toEqual({ stopped: true });
    expect(longPrompt(400).length).toBeGreaterThan(textOf(stopped).length);

    // The queued message runs next, and the task then waits for input: not canceled.
    const answered = await waitFor(async () => {
      const { body } = await rpc(harness.url, 'GetTask', { id: taskId });
      const last = body.result.history.at(-1);
      return body.result.status.state === 'TASK_STATE_INPUT_REQUIRED' &&
        textOf(last).endsWith('You said: after the stop')
        ? body.result
        : undefined;
    }, 'the queued message to be answered');
    const stored = answered.history.find((m: any) => m.messageId === stopped.messageId);
    expect(textOf(stored)).toBe(textOf(stopped));
    const more = await rpc(harness.url, 'SendMessage', {
      message: userText('still here', { taskId }),
    });
    expect(textOf(more.body.result.task.status.message)).toContain('You said: still here');
  });

  it('/stop before the model has written anything leaves a note instead of an answer', async () => {
    // The first word comes long after the /stop, however busy the machine: with 2 s
    // a loaded machine took longer than that to start the turn and send the /stop.
    const slow = await startHarness({
      config: { offline: { latencyMs: 30_000 } },
      databaseUrl: testDatabaseUrl(kind),
    });
    try {
      const { events } = await rpcStream(slow.url, 'SendStreamingMessage', {
        message: userText('take your time'),
      });
      const [{ task }] = await readUntil(events, (result) => result.task !== undefined);
      await waitFor(
        async () => ((await slow.harness.turns.scheduler.busy(task.id)) ? true : undefined),
        'the turn to start',
      );
      const stop = await rpc(slow.url, 'SendMessage', {
        message: userText('/stop', { taskId: task.id }),
      });
      // Said at once, rather than after the model's first word: the /stop found the turn.
      expect(textOf(stop.body.result.task.status.message)).toMatch(
        /^Stopped the answer in progress/,
      );
      const rest = await readUntil(events, isFinalStatus);
      expect(textOf(rest.at(-1).statusUpdate.status.message)).toBe(STOPPED_BEFORE_ANSWER);
    } finally {
      await slow.stop();
    }
  });

  it('/stop with no turn running says so, and the state stays as it was', async () => {
    const first = await rpc(harness.url, 'SendMessage', { message: userText('hello') });
    const taskId = first.body.result.task.id;
    const stop = await rpc(harness.url, 'SendMessage', { message: userText('/stop', { taskId }) });
    const reply = stop.body.result.task;
    expect(reply.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(textOf(reply.status.message)).toBe(
      'No answer is in progress on this task, so there is nothing to stop.',
    );
  });
});

describe('across instances on PostgreSQL', () => {
  let a: TestHarness;
  let b: TestHarness;
  beforeAll(async () => {
    const databaseUrl = testDatabaseUrl('postgres');
    a = await startHarness({ config: { offline: { latencyMs: 8 } }, databaseUrl });
    b = await startHarness({ config: { offline: { latencyMs: 8 } }, databaseUrl });
  });
  afterAll(async () => {
    await a.stop();
    await b.stop();
  });

  it('GetTask and SubscribeToTask on another instance carry the answer so far', async () => {
    const { taskId, events } = await streamingTurnOn(a.url, 300);
    const task = await waitFor(async () => {
      const { body } = await rpc(b.url, 'GetTask', { id: taskId, historyLength: 0 });
      return textOf(body.result.artifacts?.[0]).length > 20 ? body.result : undefined;
    }, 'the answer so far on the other instance');
    expect(task.status.state).toBe('TASK_STATE_WORKING');
    const { soFar, built, whole } = await joinedAnswer(b.url, taskId);
    expect(soFar.length).toBeGreaterThan(0);
    expect(built).toBe(whole);
    expect(whole.startsWith(textOf(task.artifacts[0]))).toBe(true);
    await events.cancel();
  });

  it('/stop sent to another instance stops the turn where it runs, and the task goes on', async () => {
    const { taskId, events } = await streamingTurnOn(a.url, 400);
    const stop = await rpc(b.url, 'SendMessage', { message: userText('/stop', { taskId }) });
    expect(textOf(stop.body.result.task.status.message)).toContain('Stopped the answer');
    const rest = await readUntil(events, isFinalStatus);
    const final = rest.at(-1).statusUpdate.status;
    expect(final.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(final.message.metadata?.[SETTINGS_KEY]).toEqual({ stopped: true });
    const more = await rpc(b.url, 'SendMessage', { message: userText('go on', { taskId }) });
    expect(textOf(more.body.result.task.status.message)).toContain('You said: go on');
  });
});
