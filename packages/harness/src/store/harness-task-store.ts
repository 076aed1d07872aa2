import {
  TaskState,
  taskStateToJSON,
  type Artifact,
  type ListTasksRequest,
  type ListTasksResponse,
  type Message,
  type Task,
} from '@a2a-js/sdk';
import type { OwnerResolver, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { DatabaseTaskStore, TASK_TABLE } from '@a2a-js/sdk/server/database';
import type { TaskMetadata } from 'a2a-commands';
import type { CommandEffects, CommandTaskStore, TaskHead } from 'a2a-commands/server';
import { KeyedLock, withoutReplyTags } from 'a2a-commands/server/internal';
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { LOCK_CLASS, lockForTransaction } from './advisory-locks.js';
import { postgresPoolOf, sqliteConnectionOf, walCheckpointsOf } from './database.js';
import { GroupCommit } from './group-commit.js';
import { PostgresCommandPath } from './postgres-command-path.js';
import { SqliteCommandPath } from './sqlite-command-path.js';
import { ownerOf, taskOwnerResolver, type Owner } from './owner.js';
import type { ReplyNotices } from './reply-notices.js';
import { newTaskId } from './task-ids.js';
import { MessageIdTakenError, type AlongsideWrite, type TaskChange } from './task-change.js';
import { historyCharsOf, historyCharsOwned, HistoryQuotaError } from './history-quota.js';
import {
  fromRow,
  MESSAGES_TABLE,
  nextSeq,
  replyLinkOf,
  toRow,
  type MessagesTable,
  type ReplyLink,
} from './messages-table.js';

export { MessageIdTakenError, type AlongsideWrite, type TaskChange } from './task-change.js';

/** Who a task belongs to, for work done outside any request (recovery). */
export interface TaskKeys {
  id: string;
  contextId: string;
  owner: string;
  tenant: string;
}

/** Rows a single INSERT carries (4 parameters each). */
const INSERT_BATCH = 1000;

/** How many of a save's newest messages are checked against the store; the SDK only appends. */
const SAVE_TAIL = 100;

/**
 * Tasks in SQL: the head (state, metadata) in the SDK's own `tasks` table,
 * through its `DatabaseTaskStore` and so scoped to the caller as the SDK
 * scopes it; the history in an append-only table of its own. Every change to
 * a task is one transaction, in order, so a command's write and a turn's write
 * never lose each other, and none costs O(history).
 *
 * On PostgreSQL several processes may share the tables: each transaction then
 * first takes the task's advisory lock, so that their writes to one task are
 * ordered too (history sequence numbers are max + 1).
 *
 * Commands skip the query builder and the SDK's row mapping: a raw path for
 * each database (`sqlite-command-path.ts`, `postgres-command-path.ts`) writes
 * the same rows, under the same locks.
 */
export class HarnessTaskStore implements TaskStore, CommandTaskStore {
  private readonly lock = new KeyedLock();
  private readonly heads: DatabaseTaskStore;
  private readonly shared: boolean;
  /** On SQLite: the command path in raw statements, with group commit. */
  private readonly commandPath?: SqliteCommandPath;
  /** On PostgreSQL: the command path in one statement a step (a head read, an append). */
  private readonly postgresPath?: PostgresCommandPath;
  private readonly onWrite?: (seconds: number) => void;
  private replyNotices?: ReplyNotices;
  /** Who owns what a call stores: the one resolver, shared with the SDK's store. */
  private readonly resolveOwner: OwnerResolver;

  /** limits.historyCharsPerOwner: how much history new sub-tasks and forks may fill. */
  private readonly historyCharsPerOwner: number;

  constructor(
    private readonly db: Kysely<MessagesTable>,
    options: {
      groupCommit?: boolean;
      /** Told how many seconds each task write took (a transaction's lock wait not included). */
      onWrite?: (seconds: number) => void;
      historyCharsPerOwner?: number;
      /** How a request's caller becomes a task's owner; the SDK's rule by default. */
      ownerResolver?: OwnerResolver;
    } = {},
  ) {
    this.onWrite = options.onWrite;
    this.historyCharsPerOwner = options.historyCharsPerOwner ?? Infinity;
    this.resolveOwner = taskOwnerResolver(options.ownerResolver);
    this.heads = new DatabaseTaskStore(db as unknown as Kysely<unknown>, {
      ownerResolver: this.resolveOwner,
    });
    this.shared = db.getExecutor().adapter instanceof PostgresAdapter;
    const sqlite = sqliteConnectionOf(db);
    if (sqlite) {
      // Kysely's connection, once its open transaction (if any) has ended.
      const exclusive = <T>(run: () => T | Promise<T>) =>
        db.connection().execute(async () => run());
      const commits = new GroupCommit(sqlite, exclusive, options.groupCommit ?? true);
      walCheckpointsOf(db)?.holdWritesWith((run) => commits.quiet(run));
      this.commandPath = new SqliteCommandPath(sqlite, commits);
    }
    const pool = postgresPoolOf(db);
    if (pool) this.postgresPath = new PostgresCommandPath(pool);
  }

  /** Whose the tasks `context` stores and reads are. */
  ownerOf(context: ServerCallContext): Owner {
    return ownerOf(context, this.resolveOwner);
  }

  /**
   * On PostgreSQL shared by instances: a command's reply is told to the
   * others inside the write that stores it, instead of in a NOTIFY of its own.
   */
  notifyRepliesWith(notices: ReplyNotices): void {
    this.replyNotices = notices;
  }

  /** Ids that sort by creation time (`task-ids.ts`). */
  newId(): string {
    return newTaskId();
  }

  /** The whole task, or its last `historyLength` messages. */
  async load(
    taskId: string,
    context: ServerCallContext,
    historyLength?: number,
  ): Promise<Task | undefined> {
    const head = await this.heads.load(taskId, context);
    if (!head) return undefined;
    const history =
      historyLength === 0 ? [] : await this.readHistory(this.db, taskId, { last: historyLength });
    return { ...head, history };
  }

  async loadHead(taskId: string, context: ServerCallContext): Promise<TaskHead | undefined> {
    // One indexed read; while another transaction is open it could see uncommitted writes, so not then.
    if (this.commandPath?.usable) return this.commandPath.loadHead(taskId, this.ownerOf(context));
    // The context remembers the metadata read, for this request's append (postgres-command-path.ts).
    if (this.postgresPath)
      return this.postgresPath.loadHead(taskId, this.ownerOf(context), context);
    const task = await this.heads.load(taskId, context);
    return task && headOf(task);
  }

  async loadHistory(
    taskId: string,
    _context: ServerCallContext,
    options: { from?: number; last?: number } = {},
  ): Promise<Message[]> {
    if (this.commandPath?.usable) return this.commandPath.history(taskId, options);
    return this.readHistory(this.db, taskId, options);
  }

  /** Where the next message of the task's history will go: `/clear` starts the model's context there. */
  historyEnd(taskId: string): Promise<number> {
    return nextSeq(this.db, taskId);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.heads.list(params, context);
  }

  /** The SDK's save: the head is replaced; messages it has not seen stored are appended. */
  save(task: Task, context: ServerCallContext): Promise<void> {
    return this.write(task.id, async (db, heads) => {
      const stored = await heads.load(task.id, context);
      const tail = task.history.slice(-SAVE_TAIL);
      const known = new Set(
        tail.length === 0
          ? []
          : (
              await db
                .selectFrom(MESSAGES_TABLE)
                .select('message_id')
                .where('task_id', '=', task.id)
                .where(
                  'message_id',
                  'in',
                  tail.map((m) => m.messageId),
                )
                .execute()
            ).map((row) => row.message_id),
      );
      const fresh = stored ? tail.filter((m) => !known.has(m.messageId)) : task.history;
      await this.appendRows(db, task.id, fresh);
      await heads.save(
        { ...task, history: [], metadata: withoutReplyTags(task.metadata) },
        context,
      );
    });
  }

  /**
   * Stores a new task, and the sub-tasks a command made with it, in one
   * transaction; `alongside` runs first in it.
   */
  create(
    task: Task,
    context: ServerCallContext,
    effects: Pick<CommandEffects, 'subtasks'> = {},
    alongside?: AlongsideWrite,
  ): Promise<void> {
    const raw = this.commandPath ?? this.postgresPath;
    if (raw && !alongside && !this.quotaApplies(effects.subtasks))
      return this.timed(raw.create([...(effects.subtasks ?? []), task], this.ownerOf(context)));
    return this.write(task.id, async (db, heads) => {
      await alongside?.(db);
      await this.checkHistoryQuota(db, effects.subtasks ?? [], context);
      await this.insertTasks(db, heads, [...(effects.subtasks ?? []), task], context);
    });
  }

  /** Applies `change` atomically; undefined when the task does not exist for this caller. */
  update(
    taskId: string,
    context: ServerCallContext,
    change: TaskChange,
  ): Promise<TaskHead | undefined> {
    if (this.commandPath && !change.alongside && !change.create)
      return this.timed(this.commandPath.update(taskId, this.ownerOf(context), change));
    return this.write(taskId, async (db, heads) => {
      const task = await heads.load(taskId, context);
      if (!task) return undefined;
      const refused = change.refuse?.(headOf(task));
      if (refused) throw refused;
      if (change.appendOnce && change.append?.length) {
        const taken = await this.takenIds(db, taskId, change.append);
        if (taken) throw new MessageIdTakenError(taskId, taken);
      }
      if ((await change.alongside?.(db)) === false) return undefined;
      if (change.create) {
        await this.checkHistoryQuota(db, change.create, context);
        await this.insertTasks(db, heads, change.create, context);
      }
      if (change.append?.length)
        await this.appendRows(db, taskId, change.append, undefined, change.replyLink);
      if (change.status) task.status = change.status(task.status);
      if (change.metadata)
        task.metadata = withoutReplyTags(change.metadata(structuredClone(task.metadata ?? {})));
      await heads.save(task, context);
      return headOf(task);
    });
  }

  appendReply(
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    context: ServerCallContext,
    effects: CommandEffects = {},
  ): Promise<TaskHead | undefined> {
    if (this.commandPath && !this.quotaApplies(effects.subtasks))
      return this.timed(
        this.commandPath.appendReply(
          taskId,
          this.ownerOf(context),
          entries,
          statusMessage,
          effects,
        ),
      );
    const postgres = this.postgresPath;
    if (postgres && !this.quotaApplies(effects.subtasks))
      // In this process, one writer of a task at a time holds a connection, as in `write`.
      return this.lock.run(taskId, () =>
        this.timed(
          postgres.appendReply(
            taskId,
            this.ownerOf(context),
            entries,
            statusMessage,
            effects,
            context,
            this.replyNotices,
          ),
        ),
      );
    return this.update(taskId, context, {
      append: entries,
      replyLink: replyLinkOf(entries, statusMessage),
      metadata: effects.metadata,
      create: effects.subtasks,
      status: (current) => ({
        state: current?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
        message: statusMessage,
        timestamp: new Date().toISOString(),
      }),
    });
  }

  /**
   * SEMANTICS §4: the answer a turn left stays the task's artifact once the
   * turn has ended; each turn's answer replaces the one before.
   */
  keepAnswerArtifact(taskId: string, context: ServerCallContext, answer: Artifact): Promise<void> {
    return this.write(taskId, async (_db, heads) => {
      const task = await heads.load(taskId, context);
      if (task) await heads.save({ ...task, history: [], artifacts: [answer] }, context);
    });
  }

  async updateMetadata(
    taskId: string,
    update: (current: TaskMetadata) => TaskMetadata,
    context: ServerCallContext,
  ): Promise<TaskMetadata> {
    const head = await this.update(taskId, context, { metadata: update });
    if (!head) throw new Error(`task ${taskId} no longer exists`);
    return head.metadata ?? {};
  }

  /** Tasks a stop left working or submitted, across callers: for recovery at start. */
  tasksLeftRunning(): Promise<TaskKeys[]> {
    const running = [TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_SUBMITTED].map(
      taskStateToJSON,
    );
    return this.taskKeys().where(sql.ref('status_state'), 'in', running).execute();
  }

  /**
   * Sub-tasks left SUBMITTED with no message, older than `olderThanMs`: made by a
   * command whose process died before the sub-task's first prompt was stored.
   */
  strandedSubtasks(olderThanMs: number): Promise<TaskKeys[]> {
    const submitted = taskStateToJSON(TaskState.TASK_STATE_SUBMITTED);
    return this.taskKeys()
      .where(sql.ref('status_state'), '=', submitted)
      .where(sql.ref('status_last_updated'), '<', Date.now() - olderThanMs)
      .where(
        sql<boolean>`not exists (select 1 from ${sql.table(MESSAGES_TABLE)} m where m.task_id = t.id)`,
      )
      .execute();
  }

  /**
   * SEMANTICS §10: the caller's most recently active task in `contextId`;
   * `'foreign'` when only other callers' tasks are there; undefined for a
   * context with no tasks.
   */
  async latestTaskInContext(
    contextId: string,
    context: ServerCallContext,
  ): Promise<TaskHead | 'foreign' | undefined> {
    const { tenant, owner } = this.ownerOf(context);
    const inContext = () => this.taskKeys().where(sql.ref('context_id'), '=', contextId);
    const own = await inContext()
      .where(sql.ref('tenant'), '=', tenant)
      .where(sql.ref('owner'), '=', owner)
      .orderBy(sql.ref('status_last_updated'), 'desc')
      .limit(1)
      .executeTakeFirst();
    if (own) return this.loadHead(own.id, context);
    return (await inContext().limit(1).executeTakeFirst()) ? 'foreign' : undefined;
  }

  /** A message of the task by its id, with its place in the history; undefined when none. */
  async findMessage(
    taskId: string,
    messageId: string,
    /** The request's context: on PostgreSQL its head is read in the same round trip, for its next `loadHead`. */
    context?: ServerCallContext,
  ): Promise<{ seq: number; message: Message } | undefined> {
    if (this.commandPath?.usable) return this.commandPath.findMessage(taskId, messageId);
    if (this.postgresPath && context)
      return this.postgresPath.findMessage(taskId, messageId, this.ownerOf(context), context);
    const row = await this.db
      .selectFrom(MESSAGES_TABLE)
      .select(['seq', 'message'])
      .where('task_id', '=', taskId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return row && { seq: Number(row.seq), message: fromRow(row) };
  }

  /** The stored reply to the task's command message `commandId`, found by its link; undefined when none. */
  async findReply(taskId: string, commandId: string): Promise<Message | undefined> {
    if (this.commandPath?.usable) return this.commandPath.findReply(taskId, commandId);
    const row = await this.db
      .selectFrom(MESSAGES_TABLE)
      .select('message')
      .where('task_id', '=', taskId)
      .where('reply_to', '=', commandId)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  /** The message at `seq` in the task's history. */
  async messageAt(taskId: string, seq: number): Promise<Message | undefined> {
    const row = await this.db
      .selectFrom(MESSAGES_TABLE)
      .select('message')
      .where('task_id', '=', taskId)
      .where('seq', '=', seq)
      .executeTakeFirst();
    return row && fromRow(row);
  }

  /**
   * Sub-tasks that bring history (a fork's copy) count against the owner's
   * quota, checked in the write's transaction: the raw path does not check it.
   */
  private quotaApplies(subtasks: readonly Task[] | undefined): boolean {
    return (
      Number.isFinite(this.historyCharsPerOwner) &&
      subtasks !== undefined &&
      historyCharsOf(subtasks) > 0
    );
  }

  /** A write of the raw command path, timed for `onWrite`. */
  private timed<T>(write: Promise<T>): Promise<T> {
    const onWrite = this.onWrite;
    if (!onWrite) return write;
    const start = process.hrtime.bigint();
    return write.then((value) => {
      onWrite(Number(process.hrtime.bigint() - start) / 1e9);
      return value;
    });
  }

  /** The first of `messages`' ids that the task already holds. */
  private async takenIds(
    db: Kysely<MessagesTable>,
    taskId: string,
    messages: Message[],
  ): Promise<string | undefined> {
    const row = await db
      .selectFrom(MESSAGES_TABLE)
      .select('message_id')
      .where('task_id', '=', taskId)
      .where(
        'message_id',
        'in',
        messages.map((m) => m.messageId),
      )
      .executeTakeFirst();
    return row?.message_id;
  }

  /** Every task's owner, tenant, id and context, across callers: for recovery only. */
  private taskKeys() {
    return this.db
      .selectFrom(sql.table(TASK_TABLE).as('t'))
      .select([
        sql<string>`tenant`.as('tenant'),
        sql<string>`owner`.as('owner'),
        sql<string>`id`.as('id'),
        sql<string>`context_id`.as('contextId'),
      ]);
  }

  private write<T>(
    taskId: string,
    change: (db: Kysely<MessagesTable>, heads: DatabaseTaskStore) => Promise<T>,
  ): Promise<T> {
    // The in-process lock keeps a busy task's writers off the pool; the advisory lock orders processes.
    return this.lock.run(taskId, async () => {
      const start = process.hrtime.bigint();
      try {
        return await this.db.transaction().execute(async (trx) => {
          if (this.shared) await lockForTransaction(trx, LOCK_CLASS.task, taskId);
          // The SDK's store works on any Kysely; its table types are its own business.
          return change(
            trx,
            new DatabaseTaskStore(trx as unknown as Kysely<unknown>, {
              ownerResolver: this.resolveOwner,
            }),
          );
        });
      } finally {
        this.onWrite?.(Number(process.hrtime.bigint() - start) / 1e9);
      }
    });
  }

  /** How many more characters of history the caller's new sub-tasks and forks may store. */
  async historyQuotaLeft(context: ServerCallContext): Promise<number> {
    if (!Number.isFinite(this.historyCharsPerOwner)) return Infinity;
    return this.historyCharsPerOwner - (await historyCharsOwned(this.db, this.ownerOf(context)));
  }

  /**
   * History copied into new tasks (a fork) must fit the
   * owner's quota. Checked in the transaction that stores them, under the
   * owner's lock on PostgreSQL, so concurrent forks cannot all pass.
   */
  private async checkHistoryQuota(
    db: Kysely<MessagesTable>,
    subtasks: readonly Task[],
    context: ServerCallContext,
  ): Promise<void> {
    const adding = historyCharsOf(subtasks);
    if (adding === 0 || !Number.isFinite(this.historyCharsPerOwner)) return;
    if (this.shared) {
      const { owner, tenant } = this.ownerOf(context);
      await lockForTransaction(db, LOCK_CLASS.owner, `${tenant}/${owner}`);
    }
    const stored = await historyCharsOwned(db, this.ownerOf(context));
    if (stored + adding > this.historyCharsPerOwner)
      throw new HistoryQuotaError(adding, stored, this.historyCharsPerOwner);
  }

  /** New tasks: their ids are fresh, so no other writer can hold them yet. */
  private async insertTasks(
    db: Kysely<MessagesTable>,
    heads: DatabaseTaskStore,
    tasks: Task[],
    context: ServerCallContext,
  ): Promise<void> {
    for (const task of tasks) {
      // A new task's history starts at 0: no need to look for its end.
      await this.appendRows(
        db,
        task.id,
        task.history,
        0,
        replyLinkOf(task.history, task.status?.message),
      );
      await heads.save(
        { ...task, history: [], metadata: withoutReplyTags(task.metadata) },
        context,
      );
    }
  }

  private async appendRows(
    db: Kysely<MessagesTable>,
    taskId: string,
    messages: Message[],
    from?: number,
    link?: ReplyLink,
  ): Promise<void> {
    if (messages.length === 0) return;
    const first = from ?? (await nextSeq(db, taskId));
    // SQLite allows 32,766 parameters a statement and PostgreSQL 65,535: long histories
    // (a fork, an import) go in batches, all in the caller's transaction.
    for (let start = 0; start < messages.length; start += INSERT_BATCH) {
      await db
        .insertInto(MESSAGES_TABLE)
        .values(
          messages
            .slice(start, start + INSERT_BATCH)
            .map((message, i) => toRow(taskId, first + start + i, { ...message, taskId }, link)),
        )
        .onConflict((conflict) => conflict.columns(['task_id', 'message_id']).doNothing())
        .execute();
    }
  }

  private async readHistory(
    db: Kysely<MessagesTable>,
    taskId: string,
    { from, last }: { from?: number; last?: number },
  ): Promise<Message[]> {
    let query = db.selectFrom(MESSAGES_TABLE).select('message').where('task_id', '=', taskId);
    if (from !== undefined) query = query.where('seq', '>=', from);
    if (last !== undefined) {
      const rows = await query.orderBy('seq', 'desc').limit(last).execute();
      return rows.reverse().map(fromRow);
    }
    return (await query.orderBy('seq', 'asc').execute()).map(fromRow);
  }
}

function headOf(task: Task): TaskHead {
  const { history: _history, artifacts: _artifacts, ...head } = task;
  return head;
}
