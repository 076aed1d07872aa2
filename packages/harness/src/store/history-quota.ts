import type { Message, Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { sql, type Kysely } from 'kysely';
import type { Owner } from './owner.js';
import { MESSAGES_TABLE, toRow, type MessagesTable } from './messages-table.js';
import { TASKS_TABLE } from './task-rows.js';
import { limitWords } from '../config/limit-words.js';

/**
 * A command would copy more history into new tasks than the owner's quota
 * (limits.historyCharsPerOwner) leaves room for. `/fork` of a task with 8 MB of
 * history stores 8 MB again for a 200-byte request: without a bound, one key
 * holder fills the disk.
 */
export class HistoryQuotaError extends UnsupportedOperationError {
  // The SDK maps errors to protocol codes by `name`: this one keeps UnsupportedOperationError's
  // (-32004, as for limits.queuedPerTask), so a client reads the message, not "Internal error".
  constructor(
    readonly adding: number,
    readonly stored: number,
    readonly quota: number,
  ) {
    super(limitWords.historyCharsPerOwner(adding, stored, quota));
  }
}

/** Characters of stored history in the tasks `owner` owns. */
export async function historyCharsOwned(
  db: Kysely<MessagesTable>,
  { owner, tenant }: Owner,
): Promise<number> {
  const row = await sql<{ chars: number | string | null }>`
    select coalesce(sum(length(m.message)), 0) as chars
    from ${sql.table(MESSAGES_TABLE)} m
    join ${sql.table(TASKS_TABLE)} t on t.id = m.task_id
    where t.tenant = ${tenant} and t.owner = ${owner}`.execute(db);
  return Number(row.rows[0]?.chars ?? 0);
}

/** Characters the messages take as stored rows. */
export function storedChars(messages: readonly Message[]): number {
  let chars = 0;
  for (const message of messages) chars += toRow('', 0, message).message.length;
  return chars;
}

/** Characters the histories of new tasks will add. */
export function historyCharsOf(tasks: readonly Task[]): number {
  let chars = 0;
  for (const task of tasks) chars += storedChars(task.history);
  return chars;
}
