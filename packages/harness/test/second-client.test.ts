/**
 * A second tab on the same chat did not see messages sent from the
 * first. Over real HTTP: what a SubscribeToTask stream on an idle task gets
 * when another client sends a message or a command. A2A streams carry task,
 * status and artifact events from the agent; the other client's message is not
 * among them (the harness does not publish user messages), so a client learns
 * of it from the turn's first status update and reads the task (GetTask),
 * whose history has it. This pins both halves of that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf, rpc, rpcStream, userText } from 'a2a-testing/http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness({ config: { offline: { latencyMs: 5 } } });
});
afterAll(() => harness.stop());

async function idleTask(): Promise<{ id: string; contextId: string }> {
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText('hello') });
  expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return body.result.task;
}

/** Events of `stream` until one matches `last`. */
async function readUntil(
  stream: { next(): Promise<unknown> },
  last: (result: any) => boolean,
): Promise<any[]> {
  const seen: any[] = [];
  for (;;) {
    const event = await stream.next();
    if (event === undefined) return seen;
    const result = resultOf(event);
    seen.push(result);
    if (last(result)) return seen;
  }
}

describe('a subscriber on an idle task, and another client', () => {
  it('a message from another client: the subscriber sees the turn start and end, and GetTask has the message', async () => {
    const task = await idleTask();
    const { events } = await rpcStream(harness.url, 'SubscribeToTask', { id: task.id });
    try {
      const [snapshot] = await readUntil(events, () => true);
      expect(snapshot.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');

      const sent = await rpc(harness.url, 'SendMessage', {
        message: userText('from the other client', { taskId: task.id, contextId: task.contextId }),
      });
      expect(sent.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const seen = await readUntil(
        events,
        (result) => result.statusUpdate?.status?.state === 'TASK_STATE_INPUT_REQUIRED',
      );
      // The first sign of the other client's turn: the task is working.
      expect(seen[0].statusUpdate.status.state).toBe('TASK_STATE_WORKING');
      // The user's message itself is not on the stream (the offline model echoes its words)...
      expect(JSON.stringify(seen)).not.toContain('ROLE_USER');
      // ...and GetTask, which the client reads on that sign, has it, and the answer.
      const { body } = await rpc(harness.url, 'GetTask', { id: task.id });
      const texts = body.result.history.map((message: any) => message.parts[0]?.text);
      expect(texts).toContain('from the other client');
      expect(body.result.history.at(-1).role).toBe('ROLE_AGENT');
    } finally {
      await events.cancel();
    }
  });

  it('a command from another client: the subscriber gets its reply, and the stream goes on', async () => {
    const task = await idleTask();
    const { events } = await rpcStream(harness.url, 'SubscribeToTask', { id: task.id });
    try {
      await readUntil(events, () => true);
      await rpc(harness.url, 'SendMessage', {
        message: userText('/status', { taskId: task.id, contextId: task.contextId }),
      });
      const [reply] = await readUntil(events, () => true);
      expect(reply.statusUpdate.metadata).toEqual({ command: 'status' });
    } finally {
      await events.cancel();
    }
  });
});
