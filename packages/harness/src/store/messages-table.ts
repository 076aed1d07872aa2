import { Message } from '@a2a-js/sdk';
import { sql, type Kysely } from 'kysely';

export const MESSAGES_TABLE = 'a2a_harness_messages';

/**
 * Task history, one row per message. The SDK's task table keeps history in
 * one JSON column that every save rewrites; appending rows here keeps commands
 * and turns independent of the history's length.
 */
export interface MessageRow {
  task_id: string;
  seq: number;
  message_id: string;
  message: string;
  /** On a command's reply: the id of the command message it answers (SEMANTICS §8 finds it so). */
  reply_to: string | null;
}

/** A command's reply and the command message it answers, stored as a link on the reply's row. */
export interface ReplyLink {
  commandId: string;
  replyId: string;
}

/**
 * The link a write that stores a command's exchange makes: `reply` answers
 * the message stored just before it (the command path stores the two
 * together, in that order, and a retry looks for the reply after its command).
 * None when `reply` is not the second of two `messages`.
 */
export function replyLinkOf(
  messages: readonly Message[],
  reply: Message | undefined,
): ReplyLink | undefined {
  if (!reply || messages.length !== 2) return undefined;
  const [command, second] = messages as [Message, Message];
  return second.messageId === reply.messageId
    ? { commandId: command.messageId, replyId: reply.messageId }
    : undefined;
}

export interface MessagesTable {
  [MESSAGES_TABLE]: MessageRow;
}

/** The table as the first releases made it; `migrations.ts` brings it up to date. */
export async function createMessagesTable(db: Kysely<MessagesTable>): Promise<void> {
  await db.schema
    .createTable(MESSAGES_TABLE)
    .ifNotExists()
    .addColumn('task_id', 'varchar(36)', (column) => column.notNull())
    .addColumn('seq', 'integer', (column) => column.notNull())
    .addColumn('message_id', 'text', (column) => column.notNull())
    .addColumn('message', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint(`${MESSAGES_TABLE}_pk`, ['task_id', 'seq'])
    .addUniqueConstraint(`${MESSAGES_TABLE}_message`, ['task_id', 'message_id'])
    .execute();
}

export function toRow(taskId: string, seq: number, message: Message, link?: ReplyLink): MessageRow {
  return {
    task_id: taskId,
    seq,
    message_id: message.messageId,
    message: JSON.stringify(Message.toJSON(message)),
    reply_to: link?.replyId === message.messageId ? link.commandId : null,
  };
}

export function fromRow(row: Pick<MessageRow, 'message'>): Message {
  return Message.fromJSON(JSON.parse(row.message));
}

/** The next sequence number of a task's history: one index probe. */
export async function nextSeq(db: Kysely<MessagesTable>, taskId: string): Promise<number> {
  const row = await db
    .selectFrom(MESSAGES_TABLE)
    .select(sql<number | null>`max(seq)`.as('last'))
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}
