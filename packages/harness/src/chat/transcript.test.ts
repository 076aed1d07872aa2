import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { SETTINGS_KEY } from '../settings.js';
import { agentMessage, chunk, commandReply, status, task, userMessage } from './test-events.js';
import { applyEvent, entriesFromTask, latestTaskRef, type Entry } from './transcript.js';

function run(events: Parameters<typeof applyEvent>[1][], start: Entry[] = []): Entry[] {
  return events.reduce<Entry[]>((entries, event) => applyEvent(entries, event), start);
}

describe('a model turn', () => {
  it('streams chunks into one answer, which the final message replaces', () => {
    const streaming = run([chunk('Hello', { first: true }), chunk(', wor'), chunk('ld')]);
    expect(streaming).toEqual([
      expect.objectContaining({ kind: 'answer', text: 'Hello, world', streaming: true }),
    ]);
    const done = run(
      [
        chunk('', { last: true }),
        status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('Hello, world!', { id: 'm1' })),
      ],
      streaming,
    );
    expect(done).toEqual([
      { kind: 'answer', key: 'm1', text: 'Hello, world!', streaming: false, preview: false },
    ]);
  });

  it('an answer without chunks (a non-streaming agent) is added as it comes', () => {
    const entries = run([status(TaskState.TASK_STATE_COMPLETED, agentMessage('done'))]);
    expect(entries).toMatchObject([{ kind: 'answer', text: 'done' }]);
  });

  it('never shows escape sequences, even split between chunks', () => {
    const entries = run([
      chunk('safe \u001b[2', { first: true }),
      chunk('J\u001b]0;pwned'),
      chunk('\u0007 text', { last: true }),
    ]);
    expect(entries[0]!.text).toBe('safe  text');
  });

  it('a turn canceled midway keeps its partial answer and says the task was canceled', () => {
    const entries = run([chunk('partial', { first: true }), status(TaskState.TASK_STATE_CANCELED)]);
    expect(entries).toMatchObject([
      { kind: 'answer', text: 'partial', streaming: false, preview: false },
      { kind: 'notice', text: 'The task was canceled.', tone: 'warn' },
    ]);
    // A later turn's answer does not take the canceled one's place.
    const next = run([status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('next'))], entries);
    expect(next.map((e) => e.text)).toEqual(['partial', 'The task was canceled.', 'next']);
  });

  it("a harness note (a model error) is a warning, not the model's answer", () => {
    const note = agentMessage('Model offline/x failed', {
      metadata: { [SETTINGS_KEY]: { note: 'model-error' } },
    });
    const entries = run([status(TaskState.TASK_STATE_INPUT_REQUIRED, note)]);
    expect(entries).toMatchObject([
      { kind: 'notice', tone: 'warn', text: 'Model offline/x failed' },
    ]);
  });
});

describe('command replies', () => {
  it('are their own entries, tagged with the command, with data and task_ref', () => {
    const entries = run([
      chunk('the model is talking', { first: true }),
      commandReply('spawn', 'Started sub-task s1', { taskRef: 's1', data: { task_ref: 's1' } }),
      chunk(' still'),
    ]);
    expect(entries).toMatchObject([
      { kind: 'answer', text: 'the model is talking still', streaming: true },
      {
        kind: 'reply',
        command: 'spawn',
        text: 'Started sub-task s1',
        taskRef: 's1',
        data: { task_ref: 's1' },
      },
    ]);
    expect(latestTaskRef(entries)).toBe('s1');
  });

  it('a reply that arrives twice (the turn stream and the command response) is drawn once', () => {
    const reply = commandReply('model', 'Model: x', { id: 'r1' });
    expect(run([reply, reply])).toHaveLength(1);
  });

  it('sanitizes the command name and the text', () => {
    const [entry] = run([commandReply('model', 'Model:\u001b[2J x\u001b]0;t\u0007')]);
    expect(entry).toMatchObject({ command: 'model', text: 'Model: x' });
  });
});

describe('entriesFromTask', () => {
  it('reads a stored task: user messages, answers and replies, in order', () => {
    const reply = agentMessage('Model: x', { metadata: { command: 'model' } });
    const entries = entriesFromTask(
      task([userMessage('hi'), agentMessage('hello'), userMessage('/model'), reply]),
    );
    expect(entries.map((e) => [e.kind, e.text])).toEqual([
      ['user', 'hi'],
      ['answer', 'hello'],
      ['user', '/model'],
      ['reply', 'Model: x'],
    ]);
  });
});

/** The first event of SubscribeToTask while a turn runs: the task, its answer so far as an artifact. */
function snapshot(answerSoFar?: string): Parameters<typeof applyEvent>[1] {
  const running = task([userMessage('count to 11')], TaskState.TASK_STATE_WORKING);
  running.status!.message = undefined;
  if (answerSoFar !== undefined) {
    const { payload } = chunk(answerSoFar, { first: true });
    if (payload?.$case === 'artifactUpdate' && payload.value.artifact) {
      running.artifacts = [payload.value.artifact];
    }
  }
  return { payload: { $case: 'task', value: running } };
}

describe('joining a running answer', () => {
  it('starts from the snapshot’s answer so far, then applies the appends', () => {
    const entries = run([snapshot('1 2 3 4 5 6 7 8'), chunk(' 9'), chunk(' 10'), chunk(' 11')]);
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'answer',
        text: '1 2 3 4 5 6 7 8 9 10 11',
        streaming: true,
        preview: true,
      }),
    ]);
    // The final message replaces the preview: one answer, whole.
    const done = run(
      [status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('1 2 3 4 5 6 7 8 9 10 11.'))],
      entries,
    );
    expect(done.map((e) => [e.kind, e.text])).toEqual([['answer', '1 2 3 4 5 6 7 8 9 10 11.']]);
  });

  it('a snapshot without the answer so far shows "answer in progress", not a fragment', () => {
    const entries = run([snapshot(), chunk(' .9'), chunk(' .10')]);
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'answer', joined: true, streaming: true, preview: true }),
    ]);
    const done = run(
      [status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('.1 .2 .9 .10'))],
      entries,
    );
    expect(done).toMatchObject([{ kind: 'answer', text: '.1 .2 .9 .10', streaming: false }]);
    expect(done[0]).not.toHaveProperty('joined', true);
  });

  it('GetTask of a task mid-answer, then its snapshot and appends: the answer shows once, whole', () => {
    const event = snapshot('1 2 3');
    const running = (event.payload as { value: Parameters<typeof entriesFromTask>[0] }).value;
    const entries = run([snapshot('1 2 3 4'), chunk(' 5')], entriesFromTask(running));
    expect(entries.map((e) => [e.kind, e.text])).toEqual([
      ['user', 'count to 11'],
      ['answer', '1 2 3 4 5'],
    ]);
    const done = run(
      [status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('1 2 3 4 5 6'))],
      entries,
    );
    expect(done.map((e) => [e.kind, e.text])).toEqual([
      ['user', 'count to 11'],
      ['answer', '1 2 3 4 5 6'],
    ]);
  });
});

describe('a stopped answer', () => {
  it('keeps the answer so far, marked stopped', () => {
    const stopped = agentMessage('Once upon a', {
      id: 'm2',
      metadata: { [SETTINGS_KEY]: { stopped: true } },
    });
    const entries = run([
      chunk('Once upon', { first: true }),
      chunk(' a'),
      status(TaskState.TASK_STATE_INPUT_REQUIRED, stopped),
    ]);
    expect(entries).toEqual([
      {
        kind: 'answer',
        key: 'm2',
        text: 'Once upon a',
        streaming: false,
        preview: false,
        stopped: true,
      },
    ]);
  });
});
