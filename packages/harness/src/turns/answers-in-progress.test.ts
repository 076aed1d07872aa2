import { describe, expect, it } from 'vitest';
import { AnswersInProgress } from './answers-in-progress.js';
import { status, statusEvent, answerChunk } from './turn-events.js';
import { TaskState } from '@a2a-js/sdk';

const task = { id: 't1', contextId: 'c1' };
const chunk = (turnId: string, text: string, first: boolean) => ({
  event: answerChunk(task, turnId, text, { first, last: false }),
  turnId,
  final: false,
});
const final = (turnId: string) => ({
  event: statusEvent(task, status(TaskState.TASK_STATE_INPUT_REQUIRED)),
  turnId,
  final: true,
});
const textOf = (answers: AnswersInProgress) => {
  const content = answers.artifactOf('t1')?.parts[0]?.content;
  return content?.$case === 'text' ? content.value : undefined;
};

describe('AnswersInProgress', () => {
  it('is the first chunk plus every append, as the artifact the appends build on', () => {
    const answers = new AnswersInProgress();
    answers.observe('t1', chunk('m1', 'Hello', true));
    answers.observe('t1', chunk('m1', ', world', false));
    expect(textOf(answers)).toBe('Hello, world');
    expect(answers.artifactOf('t1')).toMatchObject({ artifactId: 'answer-m1', name: 'answer' });
  });

  it('is gone once the turn has ended', () => {
    const answers = new AnswersInProgress();
    answers.observe('t1', chunk('m1', 'Hello', true));
    answers.observe('t1', final('m1'));
    expect(answers.artifactOf('t1')).toBeUndefined();
    expect(answers.size).toBe(0);
  });

  it("is kept when a queued turn's final event comes (CancelTask drops it), and goes with ''", () => {
    const answers = new AnswersInProgress();
    answers.observe('t1', chunk('m1', 'Hello', true));
    answers.observe('t1', final('m2'));
    expect(textOf(answers)).toBe('Hello');
    answers.observe('t1', final(''));
    expect(answers.artifactOf('t1')).toBeUndefined();
  });

  it('offers nothing for a turn seen only from its middle: its start is unknown', () => {
    const answers = new AnswersInProgress();
    answers.observe('t1', chunk('m1', ' tail', false));
    expect(answers.artifactOf('t1')).toBeUndefined();
    answers.observe('t1', chunk('m1', ' more', false));
    expect(answers.artifactOf('t1')).toBeUndefined();
    // The next turn starts afresh.
    answers.observe('t1', final('m1'));
    answers.observe('t1', chunk('m2', 'Next', true));
    expect(textOf(answers)).toBe('Next');
  });

  it('ignores status updates and other artifacts', () => {
    const answers = new AnswersInProgress();
    answers.observe('t1', {
      event: statusEvent(task, status(TaskState.TASK_STATE_WORKING)),
      turnId: 'm1',
      final: false,
    });
    expect(answers.size).toBe(0);
  });
});
