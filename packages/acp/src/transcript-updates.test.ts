import { TaskState } from '@a2a-js/sdk';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { emptyTranscript, TranscriptCore, type Transcript } from 'a2a-chat-core';
import {
  agentMessage,
  chunk,
  commandReply,
  status,
  task,
  userMessage,
} from 'a2a-chat-core/testing';
import { describe, expect, it } from 'vitest';
import { TranscriptUpdates } from './transcript-updates.js';

const core = new TranscriptCore();
const AGENT_URL = 'http://127.0.0.1:8080';

/** Feeds `events` one by one, collecting the updates each step sends. */
function stream(events: Parameters<TranscriptCore['applyEvent']>[1][], start = emptyTranscript) {
  const updates = new TranscriptUpdates(AGENT_URL);
  let transcript: Transcript = start;
  const sent: SessionUpdate[] = [];
  for (const event of events) {
    const next = core.applyEvent(transcript, event);
    sent.push(...updates.between(transcript, next));
    transcript = next;
  }
  return sent;
}

const texts = (updates: SessionUpdate[]) =>
  updates.map((update) =>
    update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'user_message_chunk'
      ? [update.sessionUpdate, update.content.type === 'text' ? update.content.text : '']
      : [update.sessionUpdate],
  );

describe('TranscriptUpdates', () => {
  it('sends a streamed answer as its new text only, all under one message id', () => {
    const sent = stream([
      chunk('Hello', { first: true }),
      chunk(', wor'),
      chunk('ld'),
      status(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage('Hello, world!', { id: 'm1' })),
    ]);
    expect(texts(sent)).toEqual([
      ['agent_message_chunk', 'Hello'],
      ['agent_message_chunk', ', wor'],
      ['agent_message_chunk', 'ld'],
      ['agent_message_chunk', '!'],
    ]);
    const ids = new Set(sent.map((update) => (update as { messageId?: string }).messageId));
    expect(ids.size).toBe(1);
  });

  it('sends a command reply once, headed with its command, its data and sub-task in _meta', () => {
    const reply = commandReply('spawn', 'started a sub-task', {
      data: { id: 'sub-1' },
      taskRef: 'sub-1',
    });
    const sent = stream([reply, reply]);
    expect(sent).toHaveLength(1);
    const [update] = sent;
    expect(texts(sent)[0]![1]).toMatch(
      /^\*\*\/spawn\*\*\n\nstarted a sub-task\n\nSub-task `sub-1`/,
    );
    expect(update!._meta).toEqual({
      a2aCommandReply: { command: 'spawn', data: { id: 'sub-1' }, taskRef: 'sub-1' },
    });
  });

  it('replays a stored task with the user’s messages when asked to', () => {
    const stored = task([userMessage('hi'), agentMessage('hello')]);
    const updates = new TranscriptUpdates(AGENT_URL);
    const loaded = core.reduce(emptyTranscript, { type: 'reset', task: stored });
    expect(texts(updates.between(emptyTranscript, loaded, { users: true }))).toEqual([
      ['user_message_chunk', 'hi'],
      ['agent_message_chunk', 'hello'],
    ]);
    // Live, an editor shows its own prompt: the user's messages are not sent back.
    const fresh = new TranscriptUpdates(AGENT_URL);
    expect(texts(fresh.between(emptyTranscript, loaded))).toEqual([
      ['agent_message_chunk', 'hello'],
    ]);
  });

  it('takes quiet entries as shown without sending them', () => {
    const updates = new TranscriptUpdates(AGENT_URL);
    const next = core.applyEvent(emptyTranscript, commandReply('stop', 'Stopped.'));
    expect(updates.between(emptyTranscript, next, { quiet: () => true })).toEqual([]);
    expect(updates.between(emptyTranscript, next)).toEqual([]);
  });
});
