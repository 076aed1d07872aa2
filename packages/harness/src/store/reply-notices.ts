import type { StreamResponse } from '@a2a-js/sdk';

/**
 * How a command's reply is told to the other instances inside the write that
 * stores it (PostgreSQL sends a NOTIFY made in a transaction when it commits),
 * so that a command on an existing task costs no round trip for the telling.
 * The cluster's bus makes the notification; the repository decides whether it
 * rides on the write and says so in what it returns (`StoredReply.announced`).
 */
export interface ReplyNotifier {
  channel: string;
  /** The notification for `event` on task `taskId`; undefined when too large to send inside a write. */
  payloadOf(taskId: string, event: StreamResponse): string | undefined;
}
