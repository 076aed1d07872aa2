/**
 * The client core against event sequences recorded from the harness
 * (packages/harness/test/record/record-chat-events.ts): what each chat
 * shows, step by step, as a user would read it.
 */
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { answerStatus, type AgentEntry, type Entry } from '../src/entries.js';
import type { Transcript } from '../src/transcript.js';
import { core, finalAnswerOf, load, replay, withoutAnswersSoFar, type Step } from './replay.js';

const kinds = (transcript: Transcript) => transcript.entries.map((entry) => entry.kind);
const answers = (transcript: Transcript) =>
  transcript.entries.filter((entry): entry is AgentEntry => entry.kind === 'agent');

/** While the answer streams, what is shown is always the start of the answer, never a fragment. */
function expectOnlyPrefixes(final: string) {
  return (transcript: Transcript) => {
    for (const answer of answers(transcript)) {
      if (answer.partial) continue;
      expect(final.startsWith(answer.text)).toBe(true);
    }
  };
}

describe('a turn (recorded)', () => {
  const { steps } = load('turn');
  const final = finalAnswerOf(steps, 'turn');

  it('the sender sees its prompt, then the answer growing, then the whole answer once', () => {
    const shown = replay(steps, { streams: ['turn'], each: expectOnlyPrefixes(final) });
    expect(shown.entries).toMatchObject([
      { kind: 'user', text: 'Say hello in five words', pending: false },
      { kind: 'agent', text: final, streaming: false, preview: false },
    ]);
    expect(answerStatus(answers(shown)[0]!)).toBe('complete');
    expect(shown.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });
});

describe('joining mid-answer (recorded)', () => {
  const { steps } = load('join-mid-answer');
  const final = finalAnswerOf(steps, 'turn');

  it('GetTask then SubscribeToTask: the snapshot’s answer so far plus the appends is the whole answer', () => {
    let sawStreaming = false;
    const shown = replay(steps, {
      streams: ['subscribe'],
      openWithGetTask: true,
      each: (transcript) => {
        expectOnlyPrefixes(final)(transcript);
        const answer = answers(transcript)[0];
        if (answer?.streaming) {
          sawStreaming = true;
          expect(answer.text.length).toBeGreaterThan(0);
          expect(answer.partial).toBeUndefined();
        }
      },
    });
    expect(sawStreaming).toBe(true);
    expect(kinds(shown)).toEqual(['user', 'agent']);
    expect(answers(shown)[0]).toMatchObject({ text: final, streaming: false });
  });

  it('a snapshot without the answer so far: "answer in progress" until the whole answer comes', () => {
    const stripped = withoutAnswersSoFar(steps);
    const seen = new Set<string>();
    const shown = replay(stripped, {
      streams: ['subscribe'],
      openWithGetTask: true,
      each: (transcript) => {
        const answer = answers(transcript)[0];
        if (answer) seen.add(answerStatus(answer));
      },
    });
    expect([...seen]).toEqual(['in-progress', 'complete']);
    expect(answers(shown)).toHaveLength(1);
    expect(answers(shown)[0]!.text).toBe(final);
  });

  it('the sender, reading the turn’s own stream, ends with the same transcript', () => {
    const sender = replay(steps, { streams: ['turn'] });
    expect(kinds(sender)).toEqual(['user', 'agent']);
    expect(answers(sender)[0]!.text).toBe(final);
  });
});

describe('a command reply during a turn (recorded)', () => {
  const { steps } = load('command-during-turn');
  const final = finalAnswerOf(steps, 'turn');

  it('the reply is a card beside the streaming answer, shown once though it came on both streams', () => {
    let replyWhileStreaming = false;
    const shown = replay(steps, {
      streams: ['turn', 'command'],
      each: (transcript) => {
        expectOnlyPrefixes(final)(transcript);
        const reply = transcript.entries.find((entry) => entry.kind === 'reply');
        if (reply && answers(transcript)[0]?.streaming) replyWhileStreaming = true;
      },
    });
    expect(replyWhileStreaming).toBe(true);
    expect(shown.entries).toMatchObject([
      { kind: 'user', pending: false },
      { kind: 'agent', text: final, streaming: false },
      { kind: 'user', text: '/status', command: 'status', pending: false },
      { kind: 'reply', command: 'status' },
    ]);
    expect(shown.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });
});

describe('a stopped turn (recorded)', () => {
  const { steps } = load('stopped-turn');
  const stoppedText = finalAnswerOf(steps, 'turn');

  it('the answer so far stays, marked stopped; /stop’s reply does not make the task look busy again', () => {
    const shown = replay(steps, { streams: ['turn', 'command'] });
    expect(shown.entries).toMatchObject([
      { kind: 'user' },
      { kind: 'agent', text: stoppedText, stopped: true, streaming: false },
      { kind: 'user', text: '/stop', command: 'stop' },
      { kind: 'reply', command: 'stop' },
    ]);
    expect(answerStatus(answers(shown)[0]!)).toBe('stopped');
    // The reply carries the state when /stop ran (working); the turn had ended since.
    expect(shown.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });

  it('read back with GetTask, the stopped answer is still marked stopped', () => {
    const task = steps.find((step): step is Extract<Step, { call: string }> => 'call' in step)!;
    const opened = core.of(task.task);
    expect(answers(opened)).toMatchObject([{ text: stoppedText, stopped: true }]);
  });
});

describe('a canceled task (recorded)', () => {
  const { steps } = load('canceled-task');

  it('what streamed stays, incomplete, and a note says the task was canceled', () => {
    const shown = replay(steps, { streams: ['turn'] });
    expect(kinds(shown)).toEqual(['user', 'agent', 'note']);
    expect(answerStatus(answers(shown)[0]!)).toBe('incomplete');
    expect(shown.entries[2]).toMatchObject({ text: 'The task was canceled.', tone: 'warn' });
    expect(shown.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});

describe('an outage (recorded)', () => {
  const { steps } = load('outage');
  const final = finalAnswerOf(steps, 'turn');

  it('a lost subscription, then a new one: no entry twice, no gap, the whole answer at the end', () => {
    let beforeOutage = '';
    const shown = replay(steps, {
      streams: ['subscribe-1', 'subscribe-2'],
      each: (transcript, step) => {
        expectOnlyPrefixes(final)(transcript);
        if ('stream' in step && step.stream === 'subscribe-1') {
          beforeOutage = answers(transcript)[0]!.text;
        }
        if ('stream' in step && step.stream === 'subscribe-2') {
          // The new snapshot brings the answer up to date at once.
          expect(answers(transcript)[0]!.text.length).toBeGreaterThan(beforeOutage.length);
        }
      },
    });
    expect(kinds(shown)).toEqual(['agent']);
    expect(answers(shown)[0]).toMatchObject({ text: final, streaming: false });
  });

  it('a snapshot applied again (a reconnect that repeats it) changes nothing', () => {
    const snapshot = steps.find(
      (step) => 'stream' in step && step.stream === 'subscribe-2',
    ) as Extract<Step, { stream: string }>;
    const once = replay(steps.slice(0, steps.indexOf(snapshot) + 1), {
      streams: ['subscribe-1', 'subscribe-2'],
    });
    const twice = core.applyEvent(once, snapshot.event);
    expect(twice.entries).toEqual(once.entries);
  });
});

describe('/clear (recorded)', () => {
  const { steps } = load('clear');

  const expected = [
    'user',
    'agent',
    'user',
    'reply',
    'divider',
    'user',
    'agent',
  ] satisfies Entry['kind'][];

  it('draws a divider after the reply; the next turn goes below it', () => {
    const shown = replay(steps, { streams: ['turn', 'command', 'turn-2'] });
    expect(kinds(shown)).toEqual(expected);
    expect(shown.entries[3]).toMatchObject({ command: 'clear', data: { cleared: 2 } });
  });

  it('read back with GetTask, the divider is in the same place', () => {
    const task = steps.find((step): step is Extract<Step, { call: string }> => 'call' in step)!;
    expect(kinds(core.of(task.task))).toEqual(expected);
  });
});
