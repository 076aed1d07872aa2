import type { Message } from '@a2a-js/sdk';
import type { TaskHead } from 'a2a-commands/server';
import type pg from 'pg';
import { fromRow, MESSAGES_TABLE } from '../messages-table.js';
import type { Owner } from '../owner.js';
import { headOfRow, TASKS_TABLE, type HeadRow } from '../task-rows.js';

/**
 * What one request last saw of a task: the stored metadata column (null when
 * empty) and, when it saw the status too, the whole head.
 */
interface Seen {
  metadata: string | null;
  head?: HeadRow;
}

/**
 * A request's reads of a task's head on PostgreSQL, remembered by request (its
 * call context) for the same request's writes: the head read with the retry
 * check (so the command needs no second read), and the head a change is
 * computed from. A write checks what it was computed from against what is
 * stored, so a remembered head that has moved on costs a round trip, never a
 * wrong write.
 */
export class RequestHeads {
  /** By request, by task: what it last read or wrote. */
  private readonly seen = new WeakMap<object, Map<string, Seen>>();
  /** By request: heads read with its retry check, by task (null: the caller has no such task). */
  private readonly prefetched = new WeakMap<object, Map<string, HeadRow | null>>();

  constructor(private readonly pool: pg.Pool) {}

  /**
   * A message of the task by its id (SEMANTICS §8's check of every message),
   * read with the caller's head of the task in the same round trip: `reader`'s
   * next `loadHead` of the task takes that head instead of reading it again.
   */
  async findMessage(
    taskId: string,
    messageId: string,
    scope: Owner,
    reader: object,
  ): Promise<{ seq: number; message: Message } | undefined> {
    const result = await this.pool.query<
      { seq: number | null; message: string | null } & {
        [K in keyof HeadRow]: HeadRow[K] | null;
      }
    >({
      name: 'a2a_harness_probe_message',
      text: `select t.context_id, t.status, t.metadata, m.seq, m.message
        from (select 1) as one
        left join ${TASKS_TABLE} t on t.id = $3 and t.tenant = $1 and t.owner = $2
        left join ${MESSAGES_TABLE} m on m.task_id = $3 and m.message_id = $4`,
      values: [scope.tenant, scope.owner, taskId, messageId],
    });
    const row = result.rows[0]!;
    let heads = this.prefetched.get(reader);
    if (!heads) this.prefetched.set(reader, (heads = new Map()));
    heads.set(
      taskId,
      row.context_id === null
        ? null
        : { context_id: row.context_id, status: row.status, metadata: row.metadata },
    );
    return row.message === null
      ? undefined
      : { seq: Number(row.seq), message: fromRow({ message: row.message }) };
  }

  /** The head, in one indexed read; `reader` remembers the metadata seen for a later append. */
  async loadHead(taskId: string, scope: Owner, reader?: object): Promise<TaskHead | undefined> {
    const row =
      (reader && this.takePrefetched(reader, taskId)) ?? (await this.readHead(taskId, scope));
    if (!row) return undefined;
    const head = headOfRow(taskId, row);
    if (reader) this.rememberHead(reader, taskId, row);
    return head;
  }

  /** The metadata `reader` saw of the task; undefined when it read no head of it. */
  seenMetadata(reader: object, taskId: string): string | null | undefined {
    return this.seenBy(reader).get(taskId)?.metadata;
  }

  /** The head `reader` last read or wrote of the task, if it saw all of it. */
  seenHead(reader: object, taskId: string): HeadRow | undefined {
    return this.seenBy(reader).get(taskId)?.head;
  }

  async readHead(taskId: string, scope: Owner): Promise<HeadRow | undefined> {
    const result = await this.pool.query<HeadRow>({
      name: 'a2a_harness_select_head',
      text: `select context_id, status, metadata from ${TASKS_TABLE} where id = $3 and tenant = $1 and owner = $2`,
      values: [scope.tenant, scope.owner, taskId],
    });
    return result.rows[0];
  }

  /** The head read with `reader`'s retry check, once: later reads go to the database. */
  private takePrefetched(reader: object, taskId: string): HeadRow | false | undefined {
    const heads = this.prefetched.get(reader);
    const head = heads?.get(taskId);
    if (head === undefined) return undefined;
    heads!.delete(taskId);
    return head ?? false;
  }

  /** The metadata a write by `reader` left; its status is not known, so no head is kept. */
  remember(reader: object, taskId: string, metadata: string | null): void {
    this.seenBy(reader).set(taskId, { metadata });
  }

  rememberHead(reader: object, taskId: string, head: HeadRow): void {
    this.seenBy(reader).set(taskId, { metadata: head.metadata, head });
  }

  private seenBy(reader: object): Map<string, Seen> {
    let seen = this.seen.get(reader);
    if (!seen) this.seen.set(reader, (seen = new Map()));
    return seen;
  }
}
