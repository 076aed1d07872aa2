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
