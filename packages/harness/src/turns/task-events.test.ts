import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { TaskEvents, type TaskEvent } from './task-events.js';
import { answerChunk, status, statusEvent } from './turn-events.js';

const task = { id: 't1', contextId: 'c1' };
const chunk = (turnId: string, text: string, first = false): TaskEvent => ({
  event: answerChunk(task, turnId, text, { first, last: false }),
  turnId,
  final: false,
});
const final = (turnId: string): TaskEvent => ({
  event: statusEvent(task, status(TaskState.TASK_STATE_INPUT_REQUIRED)),
  turnId,
  final: true,
});

/** What a subscription made before `act` gets from it. */
async function seenDuring(events: TaskEvents, act: () => void): Promise<TaskEvent[]> {
  const subscription = events.subscribe('t1');
  const seen: TaskEvent[] = [];
  const reading = (async () => {
    for await (const event of subscription) seen.push(event);
  })();
  act();
  await new Promise((resolve) => setTimeout(resolve, 10));
  subscription.close();
  await reading;
  return seen;
}

describe('TaskEvents after a final event', () => {
  it("delivers none of that turn's later events: a taken-over turn's late chunks reach no stream", async () => {
    const events = new TaskEvents();
    const seen = await seenDuring(events, () => {
      events.deliver('t1', chunk('m1', 'Hel', true));
      events.deliver('t1', final('m1'));
      events.deliver('t1', chunk('m1', 'lo'));
      events.deliver('t1', final('m1'));
      events.deliver('t1', chunk('m2', 'next', true));
    });
    expect(seen.map((e) => [e.turnId, e.final])).toEqual([
      ['m1', false],
      ['m1', true],
      ['m2', false],
    ]);
  });

  it('keeps late chunks out of the answer so far that GetTask and SubscribeToTask start from', () => {
    const events = new TaskEvents();
    events.deliver('t1', chunk('m1', 'Hel', true));
    events.deliver('t1', final('m1'));
    events.deliver('t1', chunk('m1', 'lo'));
    expect(events.answerSoFar('t1')).toBeUndefined();
  });

  it("goes on delivering every event of other turns, and CancelTask's '' final ends nothing for later", async () => {
    const events = new TaskEvents();
    const seen = await seenDuring(events, () => {
      events.deliver('t1', final(''));
      events.deliver('t1', chunk('m3', 'a', true));
      events.deliver('t1', final(''));
    });
    expect(seen).toHaveLength(3);
  });
});
