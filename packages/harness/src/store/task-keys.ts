import { TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { sql, type Kysely } from 'kysely';
import { MESSAGES_TABLE, type MessagesTable } from './messages-table.js';
import type { Owner } from './owner.js';
import { RUNNING_STATES, TASKS_TABLE } from './task-rows.js';

/** Who a task belongs to, for work done outside any request (recovery). */
export interface TaskKeys {
  id: string;
  contextId: string;
  owner: string;
  tenant: string;
}

/** Reads of tasks' keys across owners: for recovery, and SEMANTICS §10's context lookup. */
export class TaskKeyReads {
  constructor(private readonly db: Kysely<MessagesTable>) {}

  /** Tasks a stop left working or submitted, across callers. */
  tasksLeftRunning(): Promise<TaskKeys[]> {
    return this.taskKeys()
      .where(sql<boolean>`state in ${RUNNING_STATES}`)
      .execute();
  }

  /**
   * Sub-tasks left SUBMITTED with no message, older than `olderThanMs`: made by a
   * command whose process died before the sub-task's first prompt was stored.
   */
  strandedSubtasks(olderThanMs: number): Promise<TaskKeys[]> {
    const submitted = taskStateToJSON(TaskState.TASK_STATE_SUBMITTED);
    return this.taskKeys()
      .where(sql<boolean>`state in ${RUNNING_STATES}`)
      .where(sql.ref('state'), '=', submitted)
      .where(sql.ref('updated_ms'), '<', Date.now() - olderThanMs)
      .where(
        sql<boolean>`not exists (select 1 from ${sql.table(MESSAGES_TABLE)} m where m.task_id = t.id)`,
      )
      .execute();
  }

  /** The owner's most recently active task in `contextId`; 'foreign' when only others' are there. */
  async latestInContext(
    contextId: string,
    { tenant, owner }: Owner,
  ): Promise<{ id: string } | 'foreign' | undefined> {
    const inContext = () => this.taskKeys().where(sql.ref('context_id'), '=', contextId);
    const own = await inContext()
      .where(sql.ref('tenant'), '=', tenant)
      .where(sql.ref('owner'), '=', owner)
      .orderBy(sql.ref('updated_ms'), 'desc')
      .limit(1)
      .executeTakeFirst();
    if (own) return { id: own.id };
    return (await inContext().limit(1).executeTakeFirst()) ? 'foreign' : undefined;
  }

  private taskKeys() {
    return this.db
      .selectFrom(sql.table(TASKS_TABLE).as('t'))
      .select([
        sql<string>`tenant`.as('tenant'),
        sql<string>`owner`.as('owner'),
        sql<string>`id`.as('id'),
        sql<string>`context_id`.as('contextId'),
      ]);
  }
}
