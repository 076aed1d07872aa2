import type { StreamResponse } from '@a2a-js/sdk';

/** How a reply's notification to the other instances is made (the cluster's bus knows). */
export interface ReplyNotifier {
  channel: string;
  /** The notification for `event` on task `taskId`; undefined when too large to send inside a write. */
  payloadOf(taskId: string, event: StreamResponse): string | undefined;
}

/** Replies whose notices went out with their writes, remembered until the relay asks: a bound. */
const REMEMBERED = 10_000;

/**
 * Command replies told to the other instances inside the write that stores
 * them (PostgreSQL sends a NOTIFY made in a transaction when it commits), so
 * that a command on an existing task costs no round trip for the telling.
 * The relay that would otherwise send the reply's event asks `alreadySent`
 * first, and sends only what did not go with its write.
 */
export class ReplyNotices {
  private readonly sent = new Set<string>();

  constructor(readonly notifier: ReplyNotifier) {}

  /** Called once a write that carried the notice of reply `replyId` has committed. */
  markSent(replyId: string): void {
    // At the bound the oldest goes (a Set keeps insertion order), never a reply just written:
    // forgetting one the relay is about to ask for would announce it twice.
    if (this.sent.size >= REMEMBERED) this.sent.delete(this.sent.values().next().value!);
    this.sent.add(replyId);
  }

  /** Whether `event`, a reply's status update, was told already with its write; forgets it then. */
  alreadySent(event: StreamResponse): boolean {
    const payload = event.payload;
    if (payload?.$case !== 'statusUpdate') return false;
    const replyId = payload.value.status?.message?.messageId;
    return replyId !== undefined && this.sent.delete(replyId);
  }
}
