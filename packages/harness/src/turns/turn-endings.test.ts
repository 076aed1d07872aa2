import { Role, TaskState, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { newMessage, textPart, USER } from 'a2a-commands';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNote } from '../notes.js';
import { settingsOf } from '../settings.js';
import { HarnessTaskStore, openDatabase, type HarnessDatabase } from '../store/index.js';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TaskEvents, type TaskEvent } from './task-events.js';
import { abortTurn, newTurn } from './turn.js';
import {
  EMPTY_ANSWER,
  endingAfterAbort,
  endingFromOutside,
  isStoppedAnswer,
  labelOf,
  writerOf,
  STOPPED_BEFORE_ANSWER,
  TURN_FAILED_NOTE,
  TurnEndings,
  type TurnEnding,
} from './turn-endings.js';
import { status } from './turn-events.js';

let database: HarnessDatabase;
let store: HarnessTaskStore;
let events: TaskEvents;
let endings: TurnEndings;
const context = new ServerCallContext();

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-endings-'));
  database = await openDatabase(`sqlite:${path.join(dir, 'tasks.db')}`);
  store = new HarnessTaskStore(database.db);
  events = new TaskEvents();
  endings = new TurnEndings({ store, events });
});
afterAll(() => database.close());

async function workingTask(state = TaskState.TASK_STATE_WORKING): Promise<Task> {
  const id = crypto.randomUUID();
  const message = newMessage({ role: USER, parts: [textPart('question')], taskId: id });
  const task: Task = {
    id,
    contextId: 'ctx',
    status: status(state),
    history: [message],
    artifacts: [],
    metadata: {},
  };
  await store.create(task, context);
  return task;
}

/** What a stream of the task gets, until `stop`. */
function watch(taskId: string) {
  const seen: TaskEvent[] = [];
  const subscription = events.subscribe(taskId, undefined);
  const reading = (async () => {
    for await (const event of subscription) seen.push(event);
  })();
  return {
    seen,
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      subscription.close();
      await reading;
    },
  };
}

async function end(ending: TurnEnding, task?: Task, turnIds = ['m1']) {
  task ??= await workingTask();
  const stream = watch(task.id);
  const head = await endings.end(
    { taskId: task.id, contextId: task.contextId, context, turnIds },
    ending,
  );
  await stream.stop();
  const finals = stream.seen;
  const stored = await store.load(task.id, context);
  return { head, stored: stored!, last: stored!.history.at(-1)!, finals };
}

const text = (message: { parts: { content?: { $case: string; value?: unknown } }[] }) =>
  message.parts[0]?.content?.value;

describe('TurnEndings', () => {
  it('finished: the answer is stored, the task waits for input, the turn is counted', async () => {
    const { stored, last, finals } = await end({
      kind: 'finished',
      text: 'The answer.',
      usage: { inputTokens: 3, outputTokens: 2 },
    });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(last.role).toBe(Role.ROLE_AGENT);
    expect(text(last)).toBe('The answer.');
    expect(stored.status?.message?.messageId).toBe(last.messageId);
    expect(settingsOf(stored.metadata)).toMatchObject({
      turns: 1,
      usage: { inputTokens: 3, outputTokens: 2 },
    });
    expect(finals.map((e) => [e.turnId, e.final])).toEqual([['m1', true]]);
  });

  it('finished with no text says so', async () => {
    const { last } = await end({
      kind: 'finished',
      text: '',
      usage: { inputTokens: 1, outputTokens: 0 },
    });
    expect(text(last)).toBe(EMPTY_ANSWER);
  });

  it('model-error: the reason is a note, for the user only; the turn is not counted', async () => {
    const { stored, last } = await end({ kind: 'model-error', reason: 'model x: 401' });
    expect(isNote(last)).toBe(true);
    expect(text(last)).toBe('model x: 401');
    expect(settingsOf(stored.metadata).turns).toBeUndefined();
  });

  it('stopped: the answer so far is kept as an answer, marked stopped', async () => {
    const { stored, last } = await end({ kind: 'stopped', text: 'Half an ans' });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(text(last)).toBe('Half an ans');
    expect(isStoppedAnswer(last)).toBe(true);
    expect(isNote(last)).toBe(false);
  });

  it('stopped before any text: a note says so', async () => {
    const { last } = await end({ kind: 'stopped', text: '' });
    expect(isNote(last)).toBe(true);
    expect(text(last)).toBe(STOPPED_BEFORE_ANSWER);
  });

  it('failed and interrupted: a note, and every waiting stream gets the final event', async () => {
    const failed = await end({ kind: 'failed' });
    expect(text(failed.last)).toBe(TURN_FAILED_NOTE);
    const interrupted = await end({ kind: 'interrupted', note: 'The server stopped.' }, undefined, [
      'm1',
      'm2',
    ]);
    expect(text(interrupted.last)).toBe('The server stopped.');
    expect(interrupted.finals.map((e) => e.turnId)).toEqual(['m1', 'm2']);
  });

  it('never reopens a task that CancelTask ended meanwhile', async () => {
    const task = await workingTask(TaskState.TASK_STATE_CANCELED);
    const { stored } = await end({ kind: 'failed' }, task);
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('onlyWhile: writes nothing, and announces nothing, when the task has moved on', async () => {
    const task = await workingTask(TaskState.TASK_STATE_INPUT_REQUIRED);
    const stream = watch(task.id);
    const head = await endings.end(
      {
        taskId: task.id,
        contextId: task.contextId,
        context,
        turnIds: [''],
        onlyWhile: [TaskState.TASK_STATE_WORKING],
      },
      { kind: 'interrupted', note: 'too late' },
    );
    await stream.stop();
    expect(head).toBeUndefined();
    expect(stream.seen).toEqual([]);
    expect((await store.load(task.id, context))!.history).toHaveLength(1);
  });

  it('canceled: the task ends for good, with no message, and the waiting streams get the final event', async () => {
    const { stored, finals } = await end({ kind: 'canceled' }, undefined, ['m1', '']);
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(stored.status?.message).toBeUndefined();
    expect(stored.history).toHaveLength(1);
    expect(finals.map((e) => [e.turnId, e.final])).toEqual([
      ['m1', true],
      ['', true],
    ]);
  });
});

describe('who writes each ending', () => {
  const every: TurnEnding[] = [
    { kind: 'finished', text: 'a', usage: { inputTokens: 0, outputTokens: 0 } },
    { kind: 'model-error', reason: 'r' },
    { kind: 'stopped', text: '' },
    { kind: 'failed' },
    { kind: 'interrupted', note: 'n' },
    { kind: 'canceled' },
  ];

  it('the turn writes what its model part saw; cancel and shutdown write theirs from outside', () => {
    expect(every.map((ending) => [ending.kind, writerOf(ending), labelOf(ending)])).toEqual([
      ['finished', 'turn', 'answered'],
      ['model-error', 'turn', 'model_error'],
      ['stopped', 'turn', 'stopped'],
      ['failed', 'turn', 'failed'],
      ['interrupted', 'outside', 'shutdown'],
      ['canceled', 'outside', 'canceled'],
    ]);
  });

  it('an abort decides the ending: a stop keeps the answer so far, cancel and shutdown end it from outside', () => {
    expect(endingAfterAbort('stopped', 'so far')).toEqual({ kind: 'stopped', text: 'so far' });
    expect(endingAfterAbort('canceled', 'so far')).toEqual({ kind: 'canceled' });
    expect(endingAfterAbort('shutdown', '').kind).toBe('interrupted');
    const turn = () => newTurn('t', 'm');
    const stopped = turn();
    abortTurn(stopped, 'stopped');
    expect(endingFromOutside(stopped)).toBeUndefined();
    const canceled = turn();
    abortTurn(canceled, 'canceled');
    expect(endingFromOutside(canceled)).toEqual({ kind: 'canceled' });
    expect(endingFromOutside(turn())).toBeUndefined();
  });

  it('an unknown kind does not compile', () => {
    // @ts-expect-error: the union is closed
    expect(() => writerOf({ kind: 'paused' })).toThrow(/unknown turn ending/);
  });
});
