import type { Message, StreamResponse } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { ReplyNotices } from './reply-notices.js';

const reply = (messageId: string) => ({ messageId }) as Message;

const replyEvent = (message: Message): StreamResponse =>
  ({
    payload: {
      $case: 'statusUpdate',
      value: { taskId: 't', contextId: 'c', status: { state: 0, message } },
    },
  }) as unknown as StreamResponse;

const notices = () => new ReplyNotices({ channel: 'events', payloadOf: () => 'payload' });

describe('ReplyNotices', () => {
  it('a reply told with its write is not sent again, once', () => {
    const sent = notices();
    const r1 = reply('r1');
    sent.markSent(r1);
    expect(sent.alreadySent(replyEvent(r1))).toBe(true);
    // Forgotten once asked: a later event with the same reply (none is expected) goes out.
    expect(sent.alreadySent(replyEvent(r1))).toBe(false);
  });

  it('a reply whose write did not tell it is sent by the relay', () => {
    const sent = notices();
    sent.markSent(reply('r1'));
    expect(sent.alreadySent(replyEvent(reply('r2')))).toBe(false);
    expect(sent.alreadySent({ payload: undefined } as unknown as StreamResponse)).toBe(false);
  });

  it('another reply with the same id is not taken for the one told', () => {
    const sent = notices();
    sent.markSent(reply('same'));
    expect(sent.alreadySent(replyEvent(reply('same')))).toBe(false);
  });
});

describe('ReplyNotices with many replies never asked about', () => {
  it('a reply just marked is still known as sent, and so is an early one', () => {
    const sent = notices();
    const early = reply('early');
    sent.markSent(early);
    for (let i = 0; i < 20_000; i++) sent.markSent(reply(`unasked-${i}`));
    const r1 = reply('r1');
    const r2 = reply('r2');
    sent.markSent(r1);
    sent.markSent(r2);
    expect(sent.alreadySent(replyEvent(r1))).toBe(true);
    expect(sent.alreadySent(replyEvent(r2))).toBe(true);
    expect(sent.alreadySent(replyEvent(early))).toBe(true);
  });
});
