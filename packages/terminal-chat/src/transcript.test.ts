import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import {
  agentMessage,
  chunk,
  commandReply,
  status,
  task,
  userMessage,
} from 'a2a-chat-core/testing';
import { emptyTranscript, MAX_ENTRIES, transcripts, type Transcript } from './transcript.js';

/*
 * What the terminal adds to the client core (a2a-chat-core, tested there):
 * the agent's text is made safe for a terminal on the way in.
 */

function run(events: StreamResponse[], start: Transcript = emptyTranscript): Transcript {
  return events.reduce((transcript, event) => transcripts.applyEvent(transcript, event), start);
}

describe('the terminal transcript', () => {
  it('never shows escape sequences, even split between chunks', () => {
    const { entries } = run([
      chunk('safe \u001b[2', { first: true }),
      chunk('J\u001b]0;pwned'),
      chunk('\u0007 text', { last: true }),
    ]);
    expect(entries[0]!.text).toBe('safe  text');
  });

  it('holds back a split escape sequence in a snapshot’s answer so far too', () => {
    const running = task([userMessage('go')], TaskState.TASK_STATE_WORKING);
    running.status!.message = undefined;
    const { payload } = chunk('so far \u001b[3', { first: true });
    if (payload?.$case === 'artifactUpdate') running.artifacts = [payload.value.artifact!];
    const { entries } = run([{ payload: { $case: 'task', value: running } }, chunk('1m red')]);
    expect(entries.at(-1)).toMatchObject({ kind: 'agent', text: 'so far  red' });
  });

  it('sanitizes the command name and the text of replies, and what the user typed', () => {
    const { entries } = run([commandReply('model', 'Model:\u001b[2J x\u001b]0;t\u0007')]);
    expect(entries[0]).toMatchObject({ command: 'model', text: 'Model: x' });
    const sent = transcripts.reduce(emptyTranscript, {
      type: 'sent',
      messageId: 'm1',
      text: 'hi\u001b[2J',
    });
    expect(sent.entries[0]!.text).toBe('hi');
  });

  it(`keeps the last ${MAX_ENTRIES} entries`, () => {
    const answers = Array.from({ length: MAX_ENTRIES + 5 }, (_, i) =>
      status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(`answer ${i}`)),
    );
    const { entries } = run(answers);
    expect(entries).toHaveLength(MAX_ENTRIES);
    expect(entries.at(-1)!.text).toBe(`answer ${MAX_ENTRIES + 4}`);
  });
});
