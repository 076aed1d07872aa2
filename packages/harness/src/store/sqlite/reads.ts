import type { Message } from '@a2a-js/sdk';
import type { TaskHead } from 'a2a-commands/server';
import type SqliteDatabase from 'better-sqlite3';
import { fromRow, MESSAGES_TABLE } from '../messages-table.js';
import type { Owner } from '../owner.js';
import { headOfRow, TASKS_TABLE, type HeadRow } from '../task-rows.js';
import type { HistoryRange } from '../task-repository.js';

/**
 * A task's reads on SQLite, in prepared statements run at once. Call them
 * only when `usable`: while kysely holds a transaction open on the
 * connection they would see its uncommitted writes.
 */
export class SqliteReads {
  private readonly selectHead;
  private readonly selectMessage;
  private readonly selectReply;
  private readonly historyStatements;

  constructor(private readonly database: SqliteDatabase.Database) {
    this.selectHead = database.prepare<[string, string, string], HeadRow>(
      `select context_id, status, metadata from ${TASKS_TABLE} where id = ? and tenant = ? and owner = ?`,
    );
    this.selectMessage = database.prepare<[string, string], { seq: number; message: string }>(
      `select seq, message from ${MESSAGES_TABLE} where task_id = ? and message_id = ?`,
    );
    this.selectReply = database
      .prepare<{ task: string; command: string }, string>(
        `select message from ${MESSAGES_TABLE}
         where task_id = @task and reply_to = @command and seq > (
           select seq from ${MESSAGES_TABLE} where task_id = @task and message_id = @command)
         order by seq limit 1`,
      )
      .pluck();
    const history = (where: string, order: string) =>
      database
        .prepare<unknown[], string>(
          `select message from ${MESSAGES_TABLE} where task_id = ?${where} order by seq ${order}`,
        )
        .pluck();
    this.historyStatements = {
      all: history('', 'asc'),
      from: history(' and seq >= ?', 'asc'),
      last: history('', 'desc limit ?'),
      fromLast: history(' and seq >= ?', 'desc limit ?'),
    };
  }

  /** False while another transaction is open on the connection: then the caller waits for it. */
  get usable(): boolean {
    return !this.database.inTransaction;
  }

  head(taskId: string, scope: Owner): TaskHead | undefined {
    const row = this.selectHead.get(taskId, scope.tenant, scope.owner);
    return row && headOfRow(taskId, row);
  }

  findMessage(taskId: string, messageId: string): { seq: number; message: Message } | undefined {
    const row = this.selectMessage.get(taskId, messageId);
    return row && { seq: Number(row.seq), message: fromRow(row) };
  }

  findReply(taskId: string, commandId: string): Message | undefined {
    const message = this.selectReply.get({ task: taskId, command: commandId });
    return message === undefined ? undefined : fromRow({ message });
  }

  history(taskId: string, { from, last }: HistoryRange): Message[] {
    const { all, from: fromSeq, last: lastN, fromLast } = this.historyStatements;
    const rows =
      last === undefined
        ? from === undefined
          ? all.all(taskId)
          : fromSeq.all(taskId, from)
        : (from === undefined
            ? lastN.all(taskId, last)
            : fromLast.all(taskId, from, last)
          ).reverse();
    return rows.map((message) => fromRow({ message }));
  }
}
