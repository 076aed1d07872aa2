import { TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import { HARNESS_METADATA_KEY } from './harness-marks.js';
import { describe, expect, it } from 'vitest';
import { agentMessage, chunk, commandReply, status, task, userMessage } from './testing.js';
import { answerStatus, type Entry } from './entries.js';
import { emptyTranscript, latestTaskRef, TranscriptCore, type Transcript } from './transcript.js';

const core = new TranscriptCore();

function run(events: StreamResponse[], start: Transcript = emptyTranscript): Transcript {
  return events.reduce((transcript, event) => core.applyEvent(transcript, event), start);
}

const kinds = (transcript: Transcript) =>
  transcript.entries.map((entry: Entry) => [entry.kind, entry.text]);

describe('a model turn', () => {
  it('streams chunks into one answer, which the final message replaces', () => {
    const streaming = run([chunk('Hello', { first: true }), chunk(', wor'), chunk('ld')]);
    expect(streaming.entries).toEqual([
      expect.objectContaining({ kind: 'agent', text: 'Hello, world', streaming: true }),
    ]);
    const done = run(
      [
        chunk('', { last: true }),
        status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('Hello, world!', { id: 'm1' })),
      ],
      streaming,
    );
    expect(done.entries).toEqual([
      { kind: 'agent', key: 'm1', text: 'Hello, world!', streaming: false, preview: false },
    ]);
    expect(answerStatus(done.entries[0] as never)).toBe('complete');
    // A late chunk of the replaced preview is not drawn again.
    expect(run([chunk(' late')], done)).toBe(done);
  });

  it('an answer without chunks (a non-streaming agent) is added as it comes, once', () => {
    const answer = status(TaskState.TASK_STATE_COMPLETED, agentMessage('done', { id: 'a1' }));
    expect(kinds(run([answer, answer]))).toEqual([['agent', 'done']]);
  });

  it('a canceled task keeps its partial answer, incomplete, and says it was canceled', () => {
    const entries = run([chunk('partial', { first: true }), status(TaskState.TASK_STATE_CANCELED)]);
    expect(entries.entries).toMatchObject([
      { kind: 'agent', text: 'partial', streaming: false, preview: false, incomplete: true },
      { kind: 'note', text: 'The task was canceled.', tone: 'warn' },
    ]);
    expect(answerStatus(entries.entries[0] as never)).toBe('incomplete');
    expect(entries.state).toBe(TaskState.TASK_STATE_CANCELED);
    // A later answer does not take the canceled one's place.
    const next = run([status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('next'))], entries);
    expect(next.entries.map((e) => e.text)).toEqual(['partial', 'The task was canceled.', 'next']);
  });

  it("a harness note (a model error) is a note from the agent, not the model's answer", () => {
    const note = agentMessage('Model offline/x failed', {
      metadata: { [HARNESS_METADATA_KEY]: { note: 'model-error' } },
    });
    expect(run([status(TaskState.TASK_STATE_INPUT_REQUIRED, note)]).entries).toMatchObject([
      { kind: 'note', tone: 'warn', from: 'agent', text: 'Model offline/x failed' },
    ]);
  });

  it('a failed task with a message: an error note', () => {
    const failed = status(TaskState.TASK_STATE_FAILED, agentMessage('It broke.'));
    expect(run([failed]).entries).toMatchObject([
      { kind: 'note', tone: 'error', text: 'It broke.' },
    ]);
  });
});

describe('what the user sent', () => {
  const sent = core.reduce(emptyTranscript, { type: 'sent', messageId: 'u1', text: 'hi' });

  it('shows at once, pending until the task snapshot names it', () => {
    expect(sent.entries).toMatchObject([{ kind: 'user', key: 'u1', pending: true }]);
    const prompt = { ...userMessage('hi'), messageId: 'u1' };
    const accepted = run([{ payload: { $case: 'task', value: task([prompt], 2) } }], sent);
    expect(accepted.entries).toEqual([{ ...sent.entries[0], pending: false }]);
  });

  it('taken back out when the agent never got it', () => {
    expect(core.reduce(sent, { type: 'unsent', messageId: 'u1' }).entries).toEqual([]);
  });
});

describe('command replies', () => {
  it('are their own entries, tagged with the command, with data, task_ref and error', () => {
    const transcript = run([
      chunk('the model is talking', { first: true }),
      commandReply('spawn', 'Started sub-task s1', { taskRef: 's1', data: { task_ref: 's1' } }),
      commandReply('model', 'No model "x".', {
        data: { error: { code: 'unknown-model', message: 'No model "x".' } },
      }),
      chunk(' still'),
    ]);
    expect(transcript.entries).toMatchObject([
      { kind: 'agent', text: 'the model is talking still', streaming: true },
      { kind: 'reply', command: 'spawn', taskRef: 's1', data: { task_ref: 's1' } },
      { kind: 'reply', command: 'model', error: { code: 'unknown-model' } },
    ]);
    expect(latestTaskRef(transcript.entries)).toBe('s1');
  });

  it('a reply that arrives twice (the turn stream and the command response) is drawn once', () => {
    const reply = commandReply('model', 'Model: x', { id: 'r1' });
    expect(run([reply, reply]).entries).toHaveLength(1);
  });

  it("a reply's state does not undo a turn's end seen first (SEMANTICS §4)", () => {
    const ended = run([status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('done'))]);
    const late = commandReply('stop', 'Stopped.', { state: TaskState.TASK_STATE_WORKING });
    expect(run([late], ended).state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });

  it('/clear that cleared the context draws a divider; one that cleared nothing does not', () => {
    const cleared = commandReply('clear', 'Context cleared.', { id: 'c1', data: { cleared: 2 } });
    const nothing = commandReply('clear', 'Nothing to clear.', { id: 'c2', data: { cleared: 0 } });
    expect(run([cleared, nothing]).entries.map((entry) => entry.kind)).toEqual([
      'reply',
      'divider',
      'reply',
    ]);
  });
});

describe('a stored task', () => {
  it('reads user messages, answers and replies, in order, commands tagged', () => {
    const command = { ...userMessage('/model'), metadata: { command: 'model' } };
    const reply = agentMessage('Model: x', { metadata: { command: 'model' } });
    const transcript = core.of(task([userMessage('hi'), agentMessage('hello'), command, reply]));
    expect(kinds(transcript)).toEqual([
      ['user', 'hi'],
      ['agent', 'hello'],
      ['user', '/model'],
      ['reply', 'Model: x'],
    ]);
    expect(transcript.entries[2]).toMatchObject({ command: 'model', pending: false });
  });

  it('an idle task shows no stale answer artifact; an ended one with only artifacts shows them', () => {
    const withArtifact = (state: TaskState): Task => {
      const stored = task([userMessage('go')], state);
      stored.status!.message = undefined;
      const { payload } = chunk('the output', { first: true });
      if (payload?.$case === 'artifactUpdate') stored.artifacts = [payload.value.artifact!];
      return stored;
    };
    expect(kinds(core.of(withArtifact(TaskState.TASK_STATE_INPUT_REQUIRED)))).toEqual([
      ['user', 'go'],
    ]);
    expect(kinds(core.of(withArtifact(TaskState.TASK_STATE_COMPLETED)))).toEqual([
      ['user', 'go'],
      ['agent', 'the output'],
    ]);
  });

  it('ignores events of another task, unless told this stream starts the next one', () => {
    const open = core.of(task([userMessage('hi')], TaskState.TASK_STATE_CANCELED));
    const other = { ...task([], TaskState.TASK_STATE_WORKING, 't2'), contextId: 'c1' };
    const event: StreamResponse = { payload: { $case: 'task', value: other } };
    expect(core.applyEvent(open, event)).toBe(open);
    const adopted = core.applyEvent(open, event, true);
    expect(adopted.taskId).toBe('t2');
    expect(adopted.state).toBe(TaskState.TASK_STATE_WORKING);
  });
});

describe('the chat’s own actions', () => {
  it('notes, a fork to go on in, and leaving a turn', () => {
    let transcript = run([chunk('so far', { first: true })]);
    transcript = core.reduce(transcript, { type: 'left' });
    transcript = core.reduce(transcript, { type: 'moved', taskId: 'fork-1' });
    transcript = core.reduce(transcript, {
      type: 'note',
      text: 'Going on in a copy.',
      tone: 'warn',
    });
    expect(transcript.taskId).toBe('fork-1');
    expect(transcript.entries).toMatchObject([
      { kind: 'agent', text: 'so far', incomplete: true, streaming: false },
      { kind: 'note', from: 'client', tone: 'warn' },
    ]);
    // What streams after the chat left the turn is not drawn.
    expect(run([chunk(' more')], transcript)).toBe(transcript);
  });

  it('keeps at most maxEntries entries', () => {
    const small = new TranscriptCore({ maxEntries: 3 });
    let transcript = emptyTranscript;
    for (let i = 0; i < 5; i++) {
      transcript = small.reduce(transcript, { type: 'sent', messageId: `m${i}`, text: `${i}` });
    }
    expect(transcript.entries.map((entry) => entry.text)).toEqual(['2', '3', '4']);
  });
});
