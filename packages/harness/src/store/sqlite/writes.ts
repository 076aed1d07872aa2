import { Artifact, TaskState, type Message, type Task, type TaskStatus } from '@a2a-js/sdk';
import type { CommandEffects, TaskHead } from 'a2a-commands/server';
import { withoutReplyTags } from 'a2a-commands/server/internal';
import type SqliteDatabase from 'better-sqlite3';
import type { GroupCommit } from '../group-commit.js';
import { HistoryQuotaError } from '../history-quota.js';
import { MESSAGES_TABLE, replyLinkOf, toRow, type ReplyLink } from '../messages-table.js';
import { MessageIdTakenError, noTurnRows, type TaskChange } from '../task-change.js';
import {
  encode,
  headOfRow,
  statusColumnsOf,
  taskValuesOf,
  TASKS_TABLE,
  UPSERT_TASK_SQL,
  type HeadRow,
} from '../task-rows.js';
import type { Owner } from '../owner.js';
import type { TaskWriters } from '../task-writers.js';

/** A command's answer waits on its write: it is not held for a turn's group (`GroupCommit`). */
const ANSWERS_REQUEST = { answersRequest: true };

/** How many of a save's newest messages are checked against the store; the SDK only appends. */
const SAVE_TAIL = 100;

/**
 * The writes on SQLite, in raw prepared statements: a command's append of
 * itself, its reply and its effects; a turn's changes; the SDK's save, on the
 * harness's tasks and messages tables (`task-rows.ts`, `messages-table.ts`).
 * A command's write touches only the head's status and metadata columns, never
 * the artifacts a turn wrote.
 *
 * better-sqlite3 runs each statement synchronously, so a write made here is
 * atomic in the JavaScript sense too: nothing else runs on the connection in
 * between. Writes that arrive together share one transaction (`GroupCommit`).
 */
export class SqliteWrites {
  private readonly selectHead;
  private readonly upsertTask;
  private readonly updateStatus;
  private readonly updateStatusAndMetadata;
  private readonly insertMessage;
  private readonly lastSeq;
  private readonly selectMessage;
  private readonly updateArtifacts;
  private readonly charsOwned;

  constructor(
    database: SqliteDatabase.Database,
    private readonly commits: GroupCommit,
    /** Whose `quotaOf` new tasks' history is checked against. */
    private readonly writers: TaskWriters,
  ) {
    this.charsOwned = database
      .prepare<[string, string], number>(
        `select coalesce(sum(length(m.message)), 0) from ${MESSAGES_TABLE} m
         join ${TASKS_TABLE} t on t.id = m.task_id where t.owner = ? and t.tenant = ?`,
      )
      .pluck();
    this.selectHead = database.prepare<[string, string, string], HeadRow>(
      `select context_id, status, metadata from ${TASKS_TABLE} where id = ? and tenant = ? and owner = ?`,
    );
    this.upsertTask = database.prepare(UPSERT_TASK_SQL);
    this.updateStatus = database.prepare(
      `update ${TASKS_TABLE} set updated_ms = ?, state = ?, status = ? where id = ? and tenant = ? and owner = ?`,
    );
    this.updateStatusAndMetadata = database.prepare(
      `update ${TASKS_TABLE} set updated_ms = ?, state = ?, status = ?, metadata = ? where id = ? and tenant = ? and owner = ?`,
    );
    this.insertMessage = database.prepare(
      `insert into ${MESSAGES_TABLE} (task_id, seq, message_id, message, reply_to) values (?, ?, ?, ?, ?)
       on conflict (task_id, message_id) do nothing`,
    );
    this.selectMessage = database.prepare<[string, string], { seq: number }>(
      `select seq from ${MESSAGES_TABLE} where task_id = ? and message_id = ?`,
    );
    this.updateArtifacts = database.prepare(
      `update ${TASKS_TABLE} set artifacts = ? where id = ? and tenant = ? and owner = ?`,
    );
    this.lastSeq = database
      .prepare<[string], number | null>(`select max(seq) from ${MESSAGES_TABLE} where task_id = ?`)
      .pluck();
  }

  /**
   * A task change (`TaskChange`) in one atomic write: the head read, the refusal
   * checked, new tasks stored within the owner's history quota, messages
   * appended, status and metadata rewritten.
   */
  update(taskId: string, scope: Owner, change: TaskChange): Promise<TaskHead | undefined> {
    if (change.turnRow) return Promise.reject(noTurnRows(change.turnRow));
    return this.commits.write(() => {
      const row = this.selectHead.get(taskId, scope.tenant, scope.owner);
      if (!row) return undefined;
      const head = headOfRow(taskId, row);
      const refused = change.refuse?.(head);
      if (refused) throw refused;
      const append = change.append ?? [];
      if (change.appendOnce) {
        const taken = append.find((m) => this.selectMessage.get(taskId, m.messageId));
        if (taken) throw new MessageIdTakenError(taskId, taken.messageId);
      }
      if (change.create?.length) {
        this.checkHistoryQuota(change.create, scope);
        for (const task of change.create) this.insertTask(task, scope);
      }
      if (append.length > 0)
        this.appendMessages(taskId, append, this.nextSeq(taskId), change.replyLink);
      if (!change.status && !change.metadata) return head;
      if (change.status) head.status = change.status(head.status);
      if (change.metadata)
        head.metadata = withoutReplyTags(change.metadata(structuredClone(head.metadata ?? {})));
      this.updateStatusAndMetadata.run(
        ...statusColumnsOf(head.status),
        encode(head.metadata),
        taskId,
        scope.tenant,
        scope.owner,
      );
      return head;
    });
  }

  /** Stores new tasks (a command's task and its sub-tasks) with their histories, atomically. */
  create(tasks: Task[], scope: Owner): Promise<void> {
    return this.commits.write(() => {
      this.checkHistoryQuota(tasks.slice(0, -1), scope);
      for (const task of tasks) this.insertTask(task, scope);
    }, ANSWERS_REQUEST);
  }

  /**
   * Appends `entries`, makes `statusMessage` the status message with the stored
   * state kept (SEMANTICS §4), and applies `effects`: one atomic write.
   */
  appendReply(
    taskId: string,
    scope: Owner,
    entries: Message[],
    statusMessage: Message,
    effects: CommandEffects,
  ): Promise<TaskHead | undefined> {
    return this.commits.write(() => {
      const row = this.selectHead.get(taskId, scope.tenant, scope.owner);
      if (!row) return undefined;
      const head = headOfRow(taskId, row);
      this.checkHistoryQuota(effects.subtasks ?? [], scope);
      for (const subtask of effects.subtasks ?? []) this.insertTask(subtask, scope);
      this.appendMessages(
        taskId,
        entries,
        this.nextSeq(taskId),
        replyLinkOf(entries, statusMessage),
      );
      const status: TaskStatus = {
        state: head.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
        message: statusMessage,
        timestamp: new Date().toISOString(),
      };
      const statusColumns = statusColumnsOf(status);
      if (effects.metadata) {
        head.metadata = withoutReplyTags(effects.metadata(structuredClone(head.metadata ?? {})));
        this.updateStatusAndMetadata.run(
          ...statusColumns,
          JSON.stringify(head.metadata),
          taskId,
          scope.tenant,
          scope.owner,
        );
      } else {
        this.updateStatus.run(...statusColumns, taskId, scope.tenant, scope.owner);
      }
      head.status = status;
      return head;
    }, ANSWERS_REQUEST);
  }

  /** The SDK's save: the row replaced, the newest messages not yet stored appended. */
  save(task: Task, scope: Owner): Promise<void> {
    return this.commits.write(() => {
      const stored = this.selectHead.get(task.id, scope.tenant, scope.owner);
      const fresh = stored
        ? task.history
            .slice(-SAVE_TAIL)
            .filter((m) => !this.selectMessage.get(task.id, m.messageId))
        : task.history;
      if (fresh.length > 0) this.appendMessages(task.id, fresh, this.nextSeq(task.id));
      this.upsertTask.run(taskValuesOf(task, scope));
    });
  }

  /** SEMANTICS §4: a turn's answer as the task's one artifact. */
  keepAnswerArtifact(taskId: string, scope: Owner, answer: Artifact): Promise<void> {
    return this.commits.write(() => {
      const json = JSON.stringify([Artifact.toJSON(answer)]);
      this.updateArtifacts.run(json, taskId, scope.tenant, scope.owner);
    });
  }

  /**
   * History copied into new tasks (a fork) must fit the owner's quota, checked
   * in the write that stores them: writes to one file are one at a time, so
   * concurrent forks cannot all pass.
   */
  private checkHistoryQuota(subtasks: readonly Task[], scope: Owner): void {
    const quota = this.writers.quotaOf(subtasks);
    if (!quota) return;
    const stored = Number(this.charsOwned.get(scope.owner, scope.tenant) ?? 0);
    if (stored + quota.adding > quota.limit)
      throw new HistoryQuotaError(quota.adding, stored, quota.limit);
  }

  private insertTask(task: Task, scope: Owner): void {
    // A new task's history starts at 0: no need to look for its end.
    this.appendMessages(task.id, task.history, 0, replyLinkOf(task.history, task.status?.message));
    this.upsertTask.run(taskValuesOf(task, scope));
  }

  private appendMessages(
    taskId: string,
    messages: Message[],
    first: number,
    link?: ReplyLink,
  ): void {
    messages.forEach((message, i) => {
      const row = toRow(taskId, first + i, { ...message, taskId }, link);
      this.insertMessage.run(row.task_id, row.seq, row.message_id, row.message, row.reply_to);
    });
  }

  private nextSeq(taskId: string): number {
    const last = this.lastSeq.get(taskId);
    return last === null || last === undefined ? 0 : Number(last) + 1;
  }
}
