import type { Message, StreamResponse } from '@a2a-js/sdk';

/** How a reply's notification to the other instances is made (the cluster's bus knows). */
export interface ReplyNotifier {
  channel: string;
  /** The notification for `event` on task `taskId`; undefined when too large to send inside a write. */
  payloadOf(taskId: string, event: StreamResponse): string | undefined;
}

/**
 * Command replies told to the other instances inside the write that stores
 * them (PostgreSQL sends a NOTIFY made in a transaction when it commits), so
 * that a command on an existing task costs no round trip for the telling.
 *
 * The store decides, and marks the reply message it wrote; the relay that
 * would otherwise send the reply's event asks `alreadySent` with that event,
 * whose status message is the same object. Remembered by the object itself,
 * weakly: nothing to bound, and no other reply can be taken for it.
 */
export class ReplyNotices {
  private readonly sent = new WeakSet<Message>();

  constructor(readonly notifier: ReplyNotifier) {}

  /** Called once a write that carried the notice of `reply` has committed. */
  markSent(reply: Message): void {
    this.sent.add(reply);
  }

  /** Whether `event`, a reply's status update, was told already with its write; forgets it then. */
  alreadySent(event: StreamResponse): boolean {
    const payload = event.payload;
    if (payload?.$case !== 'statusUpdate') return false;
    const reply = payload.value.status?.message;
    return reply !== undefined && this.sent.delete(reply);
  }
}
