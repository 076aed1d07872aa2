import type { Artifact, StreamResponse, Task } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  emptyTranscript,
  transcriptOf,
  transcriptReducer,
  type Transcript,
} from '../src/a2a/transcript.js';
import {
  chunkEvent,
  commandReply,
  message,
  statusEvent,
  task,
  taskEvent,
  TASK,
} from './fixtures.js';

const WORKING = 2;
const INPUT_REQUIRED = 6;

function run(events: StreamResponse[], start: Transcript = emptyTranscript): Transcript {
  return events.reduce(applyEvent, start);
}

describe('a model turn streams in', () => {
  const prompt = message('user', 'hello', { id: 'm1' });
  const sent = transcriptReducer(emptyTranscript, {
    type: 'sent',
    messageId: 'm1',
    text: 'hello',
  });

  it('shows the prompt at once, pending until the agent accepts it', () => {
    expect(sent.entries).toEqual([
      { kind: 'user', key: 'm1', text: 'hello', command: undefined, pending: true },
    ]);
    const accepted = applyEvent(sent, taskEvent(task(WORKING, [prompt])));
    expect(accepted.taskId).toBe(TASK.id);
    expect(accepted.contextId).toBe(TASK.contextId);
    expect(accepted.entries).toEqual([{ ...sent.entries[0], pending: false }]);
  });

  it('grows a preview from the chunks (append after the first), then the final message replaces it', () => {
    const streaming = run(
      [
        taskEvent(task(WORKING, [prompt])),
        statusEvent(WORKING),
        chunkEvent('Hel', { append: false, last: false }),
        chunkEvent('lo the', { append: true, last: false }),
        chunkEvent('re', { append: true, last: false }),
      ],
      sent,
    );
    expect(streaming.state).toBe(WORKING);
    expect(streaming.entries[1]).toMatchObject({
      kind: 'agent',
      text: 'Hello there',
      streaming: true,
      preview: true,
    });

    const answer = message('agent', 'Hello there!', { id: 'a1' });
    const done = run(
      [chunkEvent('', { append: true, last: true }), statusEvent(INPUT_REQUIRED, answer)],
      streaming,
    );
    expect(done.state).toBe(INPUT_REQUIRED);
    expect(done.entries).toHaveLength(2);
    expect(done.entries[1]).toEqual({
      kind: 'agent',
      key: 'a1',
      text: 'Hello there!',
      streaming: false,
      preview: false,
    });
    // A late chunk of the replaced preview is not shown again.
    expect(applyEvent(done, chunkEvent('re', { append: true, last: false }))).toBe(done);
  });

  it('a non-append chunk restarts the preview text', () => {
    const next = run([
      chunkEvent('first', { append: false, last: false }),
      chunkEvent('again', { append: false, last: false }),
    ]);
    expect(next.entries[0]).toMatchObject({ text: 'again' });
  });

  it('an answer without chunks is added as it comes, and only once', () => {
    const answer = message('agent', 'done', { id: 'a2' });
    const once = run([statusEvent(INPUT_REQUIRED, answer), statusEvent(INPUT_REQUIRED, answer)]);
    expect(once.entries.map((entry) => entry.key)).toEqual(['a2']);
  });

  it('a harness note (a model error) is marked as a note, not model output', () => {
    const note = message('agent', 'The model failed', {
      id: 'n1',
      metadata: { 'a2a-harness': { note: 'model-error' } },
    });
    expect(run([statusEvent(INPUT_REQUIRED, note)]).entries[0]).toMatchObject({
      kind: 'note',
      text: 'The model failed',
      from: 'agent',
    });
  });

  it('a message the agent never got is taken back out', () => {
    expect(transcriptReducer(sent, { type: 'unsent', messageId: 'm1' }).entries).toEqual([]);
  });
});

describe('command replies are cards, never model bubbles', () => {
  it('a reply update becomes a reply entry tagged with the command, keeping its data part', () => {
    const data = { current: 'offline/echo', models: [{ id: 'offline/echo', provider: 'offline' }] };
    const { event } = commandReply('model', 'Model: offline/echo', { data, id: 'r1' });
    const next = run([taskEvent(task(INPUT_REQUIRED)), event]);
    expect(next.entries).toEqual([
      {
        kind: 'reply',
        key: 'r1',
        command: 'model',
        text: 'Model: offline/echo',
        data,
        taskRef: undefined,
      },
    ]);
    expect(next.entries.some((entry) => entry.kind === 'agent')).toBe(false);
  });

  it('keeps the task_ref of a reply that created a sub-task', () => {
    const { event } = commandReply('spawn', 'Started sub-task sub-1', { taskRef: 'sub-1' });
    expect(run([event]).entries[0]).toMatchObject({
      kind: 'reply',
      command: 'spawn',
      taskRef: 'sub-1',
    });
  });

  it('does not replace a streaming preview: a command answered during a turn goes beside it', () => {
    const { event } = commandReply('status', 'State: working', { id: 'r2' });
    const next = run([chunkEvent('partial', { append: false, last: false }), event]);
    expect(next.entries.map((entry) => entry.kind)).toEqual(['agent', 'reply']);
    expect(next.entries[0]).toMatchObject({ text: 'partial', streaming: true });
  });

  it('the same reply seen on two streams shows once', () => {
    const { event } = commandReply('help', 'Commands: …', { id: 'r3' });
    expect(run([event, event]).entries).toHaveLength(1);
  });

  it('leaves the task state as the update says (SEMANTICS §3: unchanged by the command)', () => {
    const { event } = commandReply('help', 'Commands', { id: 'r4' });
    expect(run([taskEvent(task(INPUT_REQUIRED)), event]).state).toBe(INPUT_REQUIRED);
  });
});

describe('opening a stored task', () => {
  it('builds entries from the history: prompts, answers, commands and their replies', () => {
    const { message: reply } = commandReply('spawn', 'Started sub-task sub-1', {
      taskRef: 'sub-1',
      id: 'r1',
    });
    const stored = task(INPUT_REQUIRED, [
      message('user', 'hi', { id: 'u1' }),
      message('agent', 'hello', { id: 'a1' }),
      message('user', '/spawn a poem', { id: 'u2', metadata: { command: 'spawn' } }),
      reply,
    ]);
    stored.status!.message = reply;
    const transcript = transcriptOf(stored);
    expect(transcript.entries.map((entry) => [entry.kind, entry.key])).toEqual([
      ['user', 'u1'],
      ['agent', 'a1'],
      ['user', 'u2'],
      ['reply', 'r1'],
    ]);
    expect(transcript.entries[2]).toMatchObject({ command: 'spawn' });
    expect(transcript.entries[3]).toMatchObject({ taskRef: 'sub-1' });
  });

  it('adds the status message when the history lacks it', () => {
    const stored = task(INPUT_REQUIRED, [message('user', 'hi', { id: 'u1' })]);
    stored.status!.message = message('agent', 'answer', { id: 'a9' });
    expect(transcriptOf(stored).entries.map((entry) => entry.key)).toEqual(['u1', 'a9']);
  });

  it('ignores events of another task (a stream left over from the previous view)', () => {
    const open = transcriptOf(task(INPUT_REQUIRED));
    const other: StreamResponse = {
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: 'other',
          contextId: 'ctx-9',
          status: { state: WORKING, message: message('agent', 'x'), timestamp: undefined },
          metadata: undefined,
        },
      },
    };
    expect(applyEvent(open, other)).toBe(open);
  });

  it('reset with no task is an empty new chat', () => {
    const open = transcriptOf(task(INPUT_REQUIRED, [message('user', 'hi')]));
    expect(transcriptReducer(open, { type: 'reset' })).toEqual(emptyTranscript);
  });
});

describe('joining a running answer (GetTask, or the first event of SubscribeToTask)', () => {
  const prompt = message('user', 'count to eleven', { id: 'm1' });
  const running = (answerSoFar?: string): Task => ({
    ...task(WORKING, [prompt]),
    artifacts: answerSoFar === undefined ? [] : [chunkArtifact(answerSoFar, 'answer-t1')],
  });

  it("shows the snapshot's answer so far, and the appends build on it", () => {
    const opened = transcriptOf(running('1 .2 .3 .4 .5 .6 .7 .8'));
    expect(opened.entries.at(-1)).toMatchObject({
      kind: 'agent',
      text: '1 .2 .3 .4 .5 .6 .7 .8',
      streaming: true,
    });
    const later = run([chunkEvent(' .9 .10', { append: true, last: false }, 'answer-t1')], opened);
    expect(later.entries.at(-1)).toMatchObject({ text: '1 .2 .3 .4 .5 .6 .7 .8 .9 .10' });
    expect(later.entries.at(-1)).not.toHaveProperty('partial');
  });

  it("the subscription's snapshot replaces what GetTask had, not doubling it", () => {
    const opened = transcriptOf(running('1 .2'));
    const subscribed = run(
      [
        taskEvent(running('1 .2 .3')),
        chunkEvent(' .4', { append: true, last: false }, 'answer-t1'),
      ],
      opened,
    );
    const answers = subscribed.entries.filter((entry) => entry.kind === 'agent');
    expect(answers).toHaveLength(1);
    expect(answers[0]!.text).toBe('1 .2 .3 .4');
  });

  it('a snapshot without the answer so far: appends mark it in progress, not a fragment', () => {
    const opened = transcriptOf(running());
    const later = run([chunkEvent(' .9 .10', { append: true, last: false }, 'answer-t1')], opened);
    expect(later.entries.at(-1)).toMatchObject({ kind: 'agent', partial: true });
  });

  it('an idle task shows no stale answer artifact', () => {
    const idle: Task = { ...task(INPUT_REQUIRED, [prompt]), artifacts: [chunkArtifact('x', 'a')] };
    expect(transcriptOf(idle).entries).toHaveLength(1);
  });

  it('the final message of a stopped turn is marked stopped', () => {
    const stopped = message('agent', '1 .2 .3', {
      id: 'r1',
      metadata: { 'a2a-harness': { stopped: true } },
    });
    const ended = run([statusEvent(INPUT_REQUIRED, stopped)], transcriptOf(running('1 .2')));
    expect(ended.entries.at(-1)).toMatchObject({ kind: 'agent', text: '1 .2 .3', stopped: true });
    expect(ended.entries.filter((entry) => entry.kind === 'agent')).toHaveLength(1);
  });
});

function chunkArtifact(text: string, artifactId: string): Artifact {
  const event = chunkEvent(text, { append: false, last: false }, artifactId);
  if (event.payload?.$case !== 'artifactUpdate') throw new Error('not an artifact update');
  return event.payload.value.artifact!;
}
