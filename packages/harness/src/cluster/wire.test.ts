import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { answerChunk, status, statusEvent } from '../turns/turn-events.js';
import {
  decodeBody,
  decodeHead,
  encodeBody,
  encodeHead,
  serialOf,
  type BusMessage,
} from './wire.js';

const task = { id: '5f0c6f5e-9d43-4b8e-9a56-1f1e2c3d4e5f', contextId: 'ctx' };

function roundTrip(message: BusMessage): BusMessage {
  const payload = encodeHead('instance-a', message) + encodeBody(message, 7);
  const head = decodeHead(payload)!;
  expect(head).toMatchObject({ origin: 'instance-a', kind: message.kind, taskId: task.id });
  return decodeBody(head.kind, head.taskId, head.body);
}

describe('the bus wire format', () => {
  it('carries a turn event whole: the event, its turn and whether it is the last', () => {
    const event = {
      event: answerChunk(task, 'm1', 'Hello', { first: true, last: false }),
      turnId: 'm1',
      final: false,
    };
    expect(roundTrip({ kind: 'turn', taskId: task.id, event })).toEqual({
      kind: 'turn',
      taskId: task.id,
      event,
    });
    const final = {
      event: statusEvent(task, status(TaskState.TASK_STATE_INPUT_REQUIRED)),
      turnId: 'm1',
      final: true,
    };
    const back = roundTrip({ kind: 'turn', taskId: task.id, event: final });
    expect(back.kind === 'turn' && back.event.final).toBe(true);
  });

  it('carries cancel and stop with the turn they name, and queued alone', () => {
    for (const kind of ['cancel', 'stop'] as const) {
      expect(roundTrip({ kind, taskId: task.id, turnId: 'm2' })).toEqual({
        kind,
        taskId: task.id,
        turnId: 'm2',
      });
    }
    expect(roundTrip({ kind: 'queued', taskId: task.id })).toEqual({
      kind: 'queued',
      taskId: task.id,
    });
  });

  it('reads no head from a payload of another kind or shape', () => {
    expect(decodeHead('instance-a unknown-kind task {}')).toBeUndefined();
    expect(decodeHead('no-spaces')).toBeUndefined();
  });

  it("reads a body's serial without parsing it, so that a copy is known", () => {
    expect(serialOf(encodeBody({ kind: 'queued', taskId: task.id }, 42))).toBe(42);
    expect(serialOf(encodeBody({ kind: 'stop', taskId: task.id, turnId: 'm3' }, 7))).toBe(7);
    expect(serialOf('{"u":"m3"}')).toBeUndefined();
  });
});
