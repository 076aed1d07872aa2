import { Message, taskStateFromJSON, type Task, type TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { CommandEffects, StoredReply } from 'a2a-commands/server';
import { withoutReplyTags } from 'a2a-commands/server/internal';
import type pg from 'pg';
import { APPEND_REPLY_FUNCTION, INSERT_TASKS_FUNCTION } from './command-functions.js';
import { replyLinkOf } from '../messages-table.js';
import type { Owner } from '../owner.js';
import type { ReplyNotifier } from '../reply-notices.js';
import { metadataOf } from '../task-rows.js';
import { entryRows, newTaskRows } from './json-rows.js';
import type { RequestHeads } from './request-heads.js';

/** What the append function answers (`command-functions.ts`). */
interface AppendRow {
  head_context_id: string;
  head_state: string | null;
  head_metadata: string | null;
  applied: boolean;
}

/**
 * How many times a metadata change is computed again because another writer
 * changed the metadata meanwhile. Each retry means another write committed, so
 * reaching this takes a task written to without pause.
 */
const METADATA_ATTEMPTS = 50;

/** A reply's event as the runner will publish it, and how to tell it to the other instances. */
export interface ReplyNotice {
  event: TaskStatusUpdateEvent;
  notifier: ReplyNotifier;
}

/**
 * A command's writes on PostgreSQL, in raw `pg` queries: a new task with its
 * command and reply, or one atomic append of a command, its reply and its
 * effects, each a single statement and so a single round trip. The append is a function
 * installed by the harness's migrations (`command-functions.ts`) that
 * takes the task's advisory lock, so it is ordered with the turn path's writes
 * in every process, and that notifies the reply to the other instances.
 * Rows are those of the SQLite repository (`../sqlite/`): the harness's
 * tasks and messages tables.
 *
 * A metadata change (`/model`) is computed here from the metadata the request
 * read with the head, and stored only if that is still what is stored; if not,
 * it is computed again from what the function sends back. So a command that
 * read the head costs two round trips in all, with or without a metadata change.
 */
export class PostgresCommandWrites {
  constructor(
    private readonly pool: pg.Pool,
    private readonly heads: RequestHeads,
  ) {}

  /** Stores new tasks (a command's task and its sub-tasks) with their histories, atomically. */
  async create(tasks: Task[], scope: Owner): Promise<void> {
    const { rows, messages } = newTaskRows(tasks, scope);
    await this.pool.query({
      name: INSERT_TASKS_FUNCTION,
      text: `select ${INSERT_TASKS_FUNCTION}($1, $2)`,
      values: [rows, messages],
    });
  }

  /**
   * Appends `entries`, makes `statusMessage` the status message with the stored
   * state kept (SEMANTICS §4), and applies `effects`: one atomic write. With
   * `notice`, the reply's event is stored with its timestamp and notified
   * inside that write, unless it is too large for a NOTIFY; `announced` says
   * whether it was.
   */
  async appendReply(
    taskId: string,
    scope: Owner,
    entries: Message[],
    statusMessage: Message,
    effects: CommandEffects,
    reader?: object,
    notice?: ReplyNotice,
  ): Promise<StoredReply | undefined> {
    const timestamp = notice?.event.status?.timestamp || new Date().toISOString();
    const payload = notice?.notifier.payloadOf(taskId, {
      payload: { $case: 'statusUpdate', value: notice.event },
    });
    // JSON text as the driver makes it: escapes kept, so the status reads back as the history does.
    const message = JSON.stringify(Message.toJSON(statusMessage));
    const appended = entryRows(taskId, entries, replyLinkOf(entries, statusMessage));
    const subtasks = effects.subtasks?.length ? newTaskRows(effects.subtasks, scope) : undefined;
    let seen = effects.metadata ? reader && this.heads.seenMetadata(reader, taskId) : null;
    for (let attempt = 1; ; attempt++) {
      if (seen === undefined) {
        // No head read by this request to start from: read the metadata now.
        const head = await this.heads.readHead(taskId, scope);
        if (!head) return undefined;
        seen = head.metadata;
      }
      const metadata = effects.metadata
        ? JSON.stringify(withoutReplyTags(effects.metadata(metadataOf(seen) ?? {})))
        : null;
      const result = await this.pool.query<AppendRow>({
        name: APPEND_REPLY_FUNCTION,
        text: `select * from ${APPEND_REPLY_FUNCTION}($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        values: [
          scope.tenant,
          scope.owner,
          taskId,
          appended,
          message,
          timestamp,
          Date.parse(timestamp),
          effects.metadata !== undefined,
          seen,
          metadata,
          subtasks?.rows ?? null,
          subtasks?.messages ?? null,
          payload ? notice!.notifier.channel : null,
          payload ?? null,
        ],
      });
      const row = result.rows[0];
      if (!row) return undefined;
      if (reader) this.heads.remember(reader, taskId, row.head_metadata);
      if (row.applied) {
        return {
          announced: payload !== undefined,
          id: taskId,
          contextId: row.head_context_id,
          status: {
            state: taskStateFromJSON(row.head_state),
            message: statusMessage,
            timestamp,
          },
          metadata: metadataOf(row.head_metadata),
        };
      }
      if (attempt >= METADATA_ATTEMPTS)
        throw new Error(`task ${taskId}: its metadata kept changing under a command`);
      // Another writer changed the metadata since it was read: compute the change again.
      seen = row.head_metadata;
    }
  }
}
