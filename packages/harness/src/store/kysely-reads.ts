import type { ListTasksRequest, ListTasksResponse, Message, Task } from '@a2a-js/sdk';
import type { TaskHead } from 'a2a-commands/server';
import { sql, type Kysely } from 'kysely';
import { fromRow, MESSAGES_TABLE, nextSeq, type MessagesTable } from './messages-table.js';
import type { Owner } from './owner.js';
import { listTasks, readTask } from './task-list.js';
import { headOfRow, TASKS_TABLE, type HeadRow, type TasksTable } from './task-rows.js';
import type { HistoryRange } from './task-repository.js';

/**
 * Reads of a task through kysely: on PostgreSQL, and on SQLite while kysely
 * holds a transaction open on the connection (they then wait for it).
 */
export class KyselyReads {
  /** The same database, typed with the tasks table too. */
  private readonly tasks;

  constructor(private readonly db: Kysely<MessagesTable>) {
    this.tasks = db.withTables<TasksTable>();
  }

  async head({ tenant, owner }: Owner, taskId: string): Promise<TaskHead | undefined> {
    const { rows } = await sql<HeadRow>`
      select context_id, status, metadata from ${sql.table(TASKS_TABLE)}
      where tenant = ${tenant} and owner = ${owner} and id = ${taskId}`.execute(this.db);
    return rows[0] && headOfRow(taskId, rows[0]);
  }

  task(owner: Owner, taskId: string): Promise<Task | undefined> {
    return readTask(this.tasks, owner, taskId);
  }

  list(owner: Owner, params: ListTasksRequest): Promise<ListTasksResponse> {
    return listTasks(this.tasks, owner, params);
  }

  async history(taskId: string, { from, last }: HistoryRange): Promise<Message[]> {
    let query = this.db.selectFrom(MESSAGES_TABLE).select('message').where('task_id', '=', taskId);
    if (from !== undefined) query = query.where('seq', '>=', from);
    if (last !== undefined) {
      const rows = await query.orderBy('seq', 'desc').limit(last).execute();
      return rows.reverse().map(fromRow);
    }
    return (await query.orderBy('seq', 'asc').execute()).map(fromRow);
  }

  historyEnd(taskId: string): Promise<number> {
    return nextSeq(this.db, taskId);
  }

  async findMessage(
    taskId: string,
    messageId: string,
  ): Promise<{ seq: number; message: Message } | undefined> {
    const row = await this.db
      .selectFrom(MESSAGES_TABLE)
      .select(['seq', 'message'])
      .where('task_id', '=', taskId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return row && { seq: Number(row.seq), message: fromRow(row) };
  }

  async findReply(taskId: string, commandId: string): Promise<Message | undefined> {
    // From the command onwards, by the table's key: the link has no index of its own.
    const command = this.db
      .selectFrom(MESSAGES_TABLE)
      .select('seq')
      .where('task_id', '=', taskId)
      .where('message_id', '=', commandId);
    const row = await this.db
      .selectFrom(MESSAGES_TABLE)
      .select('message')
      .where('task_id', '=', taskId)
      .where('seq', '>', command)
      .where('reply_to', '=', commandId)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  async messageAt(taskId: string, seq: number): Promise<Message | undefined> {
    const row = await this.db
      .selectFrom(MESSAGES_TABLE)
      .select('message')
      .where('task_id', '=', taskId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    return row && fromRow(row);
  }
}
