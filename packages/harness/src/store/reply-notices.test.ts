import type { StreamResponse } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { ReplyNotices } from './reply-notices.js';

const replyEvent = (replyId: string): StreamResponse =>
  ({
    payload: {
      $case: 'statusUpdate',
      value: { taskId: 't', contextId: 'c', status: { state: 0, message: { messageId: replyId } } },
    },
  }) as unknown as StreamResponse;

describe('ReplyNotices', () => {
  const notices = () => new ReplyNotices({ channel: 'events', payloadOf: () => 'payload' });

  it('a reply told with its write is not sent again, once', () => {
    const sent = notices();
    sent.markSent('r1');
    expect(sent.alreadySent(replyEvent('r1'))).toBe(true);
    // Forgotten once asked: a later event with the same reply (none is expected) goes out.
    expect(sent.alreadySent(replyEvent('r1'))).toBe(false);
  });

  it('a reply whose write did not tell it is sent by the relay', () => {
    const sent = notices();
    sent.markSent('r1');
    expect(sent.alreadySent(replyEvent('r2'))).toBe(false);
    expect(sent.alreadySent({ payload: undefined } as unknown as StreamResponse)).toBe(false);
  });
});

describe('ReplyNotices at its bound', () => {
  it('a reply marked as the bound is reached is still known as sent', () => {
    const sent = new ReplyNotices({ channel: 'events', payloadOf: () => 'payload' });
    // Replies the relay never asks about fill the memory up to its bound.
    for (let i = 0; i < 9_999; i++) sent.markSent(`unasked-${i}`);
    sent.markSent('r1');
    sent.markSent('r2');
    // Reaching the bound forgets the oldest, not the replies just written.
    expect(sent.alreadySent(replyEvent('r1'))).toBe(true);
    expect(sent.alreadySent(replyEvent('r2'))).toBe(true);
  });
});
