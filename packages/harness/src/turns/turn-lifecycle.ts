import {
  Role,
  TaskState,
  type Message,
  type SendMessageRequest,
  type Task,
  type TaskStatus,
} from '@a2a-js/sdk';
import {
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskHead } from 'a2a-commands/server';
import { withoutReplyTags } from 'a2a-commands/server/internal';
import type { Logger } from 'pino';
import type { HarnessMetrics } from '../metrics/harness-metrics.js';
import type { ModelCatalog, ModelStreams } from '../models/index.js';
import { hangUpSignal, requestLog } from '../request-scope.js';
import { ownerContext, retryWhileUnreachable, type HarnessTaskStore } from '../store/index.js';
import type { TurnOptions } from './turn-options.js';
import { continueContext } from './context-continuation.js';
import { LocalTurns } from './local-turns.js';
import { unansweredMessages } from './model-context.js';
import { streamAnswer } from './model-turn.js';
import type { EventSubscription, TaskEvents } from './task-events.js';
import { abortReasonOf, type Turn } from './turn.js';
import {
  endingAfterAbort,
  endingFromOutside,
  labelOf,
  TurnEndings,
  writerOf,
  type TurnEnding,
} from './turn-endings.js';
import { status, statusEvent, TERMINAL_STATES } from './turn-events.js';
import type { Admission, SchedulerDeps, TurnScheduler } from './turn-scheduler.js';

export interface TurnLifecycleOptions {
  store: HarnessTaskStore;
  catalog: ModelCatalog;
  /** Where answers stream; on this thread when absent. */
  streams?: ModelStreams;
  events: TaskEvents;
  logger: Logger;
  /** Ordinary messages allowed to wait behind a running turn, per task. */
  maxQueuedPerTask?: number;
  /** Chunking, timeouts and the answer cap; defaults when absent. */
  options?: TurnOptions;
  /** Where turns wait and run; in this process by default. */
  scheduler?: (deps: SchedulerDeps) => TurnScheduler;
  /** Told how each turn ended, of its first token and of failed model calls. */
  metrics?: Pick<HarnessMetrics, 'turnEnded' | 'firstToken' | 'modelError'>;
  /** For tests: the model part of a turn. */
  streamAnswer?: typeof streamAnswer;
}

export interface Accepted {
  head: TaskHead;
  message: Message;
  /** The task's events from before the message was stored: none of its turn's is missed. */
  events: EventSubscription;
  /** Settles, with the status the turn stored, when it has ended, if that is known in this process. */
  done: Promise<TaskStatus | undefined>;
}

/** The note each message that waited behind the running turn gets when a stop left it unrun. */
export const QUEUED_AT_STOP =
  'This message was waiting for the model when the server stopped, and was not run. Send it again, under a new messageId, to run it.';

/**
 * A model turn's whole life, in order:
 *
 *   accept    the message is checked and stored; the task is WORKING, or the
 *             turn waits behind the running one (SEMANTICS §4)
 *   queue     the scheduler keeps it: LocalTurns in this process, ClusterTurns
 *             in PostgreSQL for instances sharing it
 *   run       its time comes: the task is marked working, and the model's
 *             answer streams to the task's streams (model-turn.ts)
 *   end       finished, model-error, stopped (/stop), failed, interrupted:
 *             written by TurnEndings, the one place a turn's end is written;
 *             canceled ends the task itself (cancel)
 *   recover   at start, turns a stop left running end as interrupted
 */
export class TurnLifecycle {
  readonly scheduler: TurnScheduler;
  readonly endings: TurnEndings;
  readonly events: TaskEvents;

  constructor(private readonly options: TurnLifecycleOptions) {
    this.events = options.events;
    this.endings = new TurnEndings({ store: options.store, events: options.events });
    const deps: SchedulerDeps = {
      store: options.store,
      events: options.events,
      endings: this.endings,
      run: (turn, context) => this.run(turn, context),
    };
    this.scheduler = options.scheduler?.(deps) ?? new LocalTurns(deps);
  }

  /** Accept: checks the message, stores it, and queues its turn. Nothing is stored when a check fails. */
  async accept(params: SendMessageRequest, context: ServerCallContext): Promise<Accepted> {
    const incoming = withoutClaimedTags(checkMessage(params.message));
    const { store } = this.options;
    let head: TaskHead | undefined;
    let message: Message;
    let events: EventSubscription | undefined;
    let admission: Admission | undefined;
    try {
      if (incoming.taskId) {
        const taskId = requireTaskId(incoming.taskId);
        head = await store.loadHead(taskId, context);
        if (!head) throw new TaskNotFoundError(`Task not found: ${taskId}`);
        const ended = endedError(head);
        if (ended) throw ended;
        if (incoming.contextId && incoming.contextId !== head.contextId) {
          throw new RequestMalformedError(
            `contextId mismatch: message contextId '${incoming.contextId}' does not match task '${taskId}' contextId '${head.contextId}'`,
          );
        }
        // Only for the state written: the queue's limit is checked in the write itself.
        const busy = await this.scheduler.busy(taskId);
        message = { ...incoming, taskId, contextId: head.contextId };
        const request = { taskId, turnId: message.messageId };
        events = this.events.subscribe(taskId, hangUpSignal(context));
        admission = this.scheduler.admit(
          request,
          context,
          this.options.maxQueuedPerTask ?? Infinity,
        );
        const admit = admission;
        head = await store.update(taskId, context, {
          // Again where it is written: a CancelTask may have ended the task since.
          refuse: (current) => endedError(current) ?? admit.refuse(),
          append: [message],
          appendOnce: true,
          status: (current) => (busy ? current : status(TaskState.TASK_STATE_WORKING)),
          turnRow: admit.turnRow,
        });
        if (!head) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      } else {
        const id = store.newId();
        const contextId = incoming.contextId || store.newId();
        const seed = incoming.contextId
          ? await continueContext(store, incoming.contextId, id, context)
          : undefined;
        message = { ...incoming, taskId: id, contextId };
        const task: Task = {
          id,
          contextId,
          status: status(TaskState.TASK_STATE_WORKING),
          history: [...(seed?.history ?? []), message],
          artifacts: [],
          metadata: seed?.metadata ?? {},
        };
        events = this.events.subscribe(id, hangUpSignal(context));
        // A new task: nothing waits on it yet, so the admission only records the turn.
        admission = this.scheduler.admit({ taskId: id, turnId: message.messageId }, context, 0);
        await store.create(task, context, {}, admission.turnRow);
        head = { id, contextId, status: task.status, metadata: task.metadata };
      }
    } catch (error) {
      admission?.abandon();
      events?.close();
      throw error;
    }
    const done = this.scheduler.start({ taskId: head.id, turnId: message.messageId }, context);
    return { head, message, events, done };
  }

  /**
   * `/stop` (SEMANTICS §4): the running turn ends at once, its answer so far
   * kept; the next queued message then runs. False when no turn runs.
   */
  stop(taskId: string): Promise<boolean> {
    return this.scheduler.stop(taskId);
  }

  /** CancelTask: the task ends for good; its queued turns are dropped and the running one aborted. */
  async cancel(taskId: string, context: ServerCallContext): Promise<void> {
    const { store } = this.options;
    const head = await store.loadHead(taskId, context);
    if (!head) throw new TaskNotFoundError(`Task not found: ${taskId}`);
    const state = head.status?.state ?? 0;
    if (state === TaskState.TASK_STATE_CANCELED) return;
    if (TERMINAL_STATES.has(state))
      throw new TaskNotCancelableError(`Task ${taskId} has already ended.`);
    await this.scheduler.cancel({ id: taskId, contextId: head.contextId }, (turnRow) =>
      // The scheduler announces the final event: it knows which turns were dropped.
      this.endings.end(
        { taskId, contextId: head.contextId, context, turnIds: [], fence: turnRow },
        { kind: 'canceled' },
      ),
    );
  }

  /** Shutdown: every turn running here ends as interrupted, with `note`. */
  shutdown(note: string): Promise<void> {
    return this.scheduler.endTurnsInFlight(note);
  }

  /**
   * Recover, for a process that is alone on its database (SQLite): whatever
   * was working or submitted when it last stopped was interrupted.
   */
  async recover(note: string): Promise<string[]> {
    const ended: string[] = [];
    for (const row of await this.options.store.tasksLeftRunning()) {
      const target = {
        taskId: row.id,
        contextId: row.contextId,
        context: ownerContext(row.owner, row.tenant),
        turnIds: [''],
      };
      // Read first: the running message and those queued behind it, oldest first.
      const waiting = unansweredMessages(
        await this.options.store.loadHistory(row.id, target.context),
      );
      const head = await this.endings.end(
        { ...target, onlyWhile: [TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_SUBMITTED] },
        { kind: 'interrupted', note },
      );
      if (!head) continue;
      ended.push(row.id);
      // Each queued message gets a note of its own: a retry of it finds its own outcome.
      for (let i = 1; i < waiting.length; i++)
        await this.endings.end(target, { kind: 'interrupted', note: QUEUED_AT_STOP });
    }
    return ended;
  }

  /** Run: one turn, from its start to its stored end. Never throws. */
  private async run(turn: Turn, context: ServerCallContext): Promise<void> {
    let contextId: string | undefined;
    try {
      const head = await this.options.store.loadHead(turn.taskId, context);
      if (!head) return;
      contextId = head.contextId;
      const streamed = await this.answer(turn, head, context);
      if (!streamed) return;
      // An ending written from outside (cancel, shutdown) wins over what the model part saw.
      const ending = endingFromOutside(turn) ?? streamed;
      if (writerOf(ending) === 'outside') {
        this.options.metrics?.turnEnded(labelOf(ending));
        return;
      }
      await this.end(turn, contextId, context, ending);
      this.options.metrics?.turnEnded(turn.ended ? labelOf(ending) : 'abandoned');
    } catch (error) {
      requestLog(context, this.options.logger).error(
        { err: error, taskId: turn.taskId },
        'turn failed outside the model call',
      );
      // A store closing under a shutdown lands here: that ending is written from outside.
      if (endingFromOutside(turn)) return;
      await this.endFailed(turn, context, contextId);
    }
  }

  /** A failed turn still ends, with a final event, so that no caller waits for it for good. */
  private async endFailed(
    turn: Turn,
    context: ServerCallContext,
    contextId: string | undefined,
  ): Promise<void> {
    try {
      this.options.metrics?.turnEnded('failed');
      contextId ??= await retryWhileUnreachable(
        async () => (await this.options.store.loadHead(turn.taskId, context))?.contextId,
        this.outageRetry(turn, context),
      );
      if (contextId) await this.end(turn, contextId, context, { kind: 'failed' });
    } catch (error) {
      requestLog(context, this.options.logger).error(
        { err: error, taskId: turn.taskId },
        'could not end a failed turn',
      );
    }
  }

  /**
   * The model's answer, or how an abort before the model was asked ended the turn: a /stop
   * can find the turn before it has started (it reads the turn's row as the claim commits).
   */
  private async answer(
    turn: Turn,
    head: TaskHead,
    context: ServerCallContext,
  ): Promise<TurnEnding | undefined> {
    const abortedBefore = abortReasonOf(turn);
    if (abortedBefore !== undefined) return endingAfterAbort(abortedBefore, '');
    const started = await this.markWorking(turn, head, context);
    if (!started) return undefined;
    return (this.options.streamAnswer ?? streamAnswer)(this.options, turn, started, context);
  }

  /** The task is working while its turn runs; undefined when the turn cannot start. */
  private async markWorking(
    turn: Turn,
    head: TaskHead,
    context: ServerCallContext,
  ): Promise<TaskHead | undefined> {
    const task = { id: turn.taskId, contextId: head.contextId };
    // A CancelTask that slipped in between this turn's acceptance and its start ends it here.
    if (TERMINAL_STATES.has(head.status?.state ?? 0)) {
      this.endings.announce(task, head.status!, [turn.turnId]);
      return undefined;
    }
    let started: TaskHead | undefined = head;
    if (head.status?.state !== TaskState.TASK_STATE_WORKING) {
      started = await this.options.store.update(turn.taskId, context, {
        status: (current) =>
          TERMINAL_STATES.has(current?.state ?? 0) ? current : status(TaskState.TASK_STATE_WORKING),
        turnRow: turn.fence,
      });
      if (!started) return undefined;
    }
    this.events.publish(turn.taskId, {
      event: statusEvent(task, status(TaskState.TASK_STATE_WORKING)),
      turnId: turn.turnId,
      final: false,
    });
    return started;
  }

  /**
   * Writes the turn's ending; while the database is unreachable it keeps
   * trying, so that the task does not stay working once it is back. A try
   * after the first writes only while the task is still working: the one
   * before may have been stored with its answer lost on the way back.
   */
  private async end(
    turn: Turn,
    contextId: string,
    context: ServerCallContext,
    ending: TurnEnding,
  ): Promise<void> {
    const target = {
      taskId: turn.taskId,
      contextId,
      context,
      turnIds: [turn.turnId],
      fence: turn.fence,
    };
    turn.ended = await retryWhileUnreachable(
      async (attempt) => {
        if (attempt === 0) return (await this.endings.end(target, ending))?.status;
        const ended = await this.endings.end(
          { ...target, onlyWhile: [TaskState.TASK_STATE_WORKING] },
          ending,
        );
        if (ended) return ended.status;
        return this.announceStoredEnding(turn, contextId, context);
      },
      this.outageRetry(turn, context),
    );
  }

  /** The ending a lost answer stored: its final event goes out now. */
  private async announceStoredEnding(
    turn: Turn,
    contextId: string,
    context: ServerCallContext,
  ): Promise<TaskStatus | undefined> {
    const head = await this.options.store.loadHead(turn.taskId, context);
    if (!head?.status || head.status.state === TaskState.TASK_STATE_WORKING) return undefined;
    this.endings.announce({ id: turn.taskId, contextId }, head.status, [turn.turnId]);
    return head.status;
  }

  /** Cancel and shutdown write their own ending: a turn they aborted stops trying. */
  private outageRetry(turn: Turn, context: ServerCallContext) {
    return {
      giveUp: () => endingFromOutside(turn) !== undefined,
      onWait: (error: Error, attempt: number) => {
        if (attempt === 0)
          requestLog(context, this.options.logger).warn(
            { err: error.message, taskId: turn.taskId },
            "database unreachable: the turn's ending is written when it is back",
          );
      },
    };
  }
}

/** Ordinary messages are refused once a task has ended: on this harness CancelTask is for good. */
function endedError(head: TaskHead): UnsupportedOperationError | undefined {
  const state = head.status?.state ?? 0;
  if (!TERMINAL_STATES.has(state)) return undefined;
  return new UnsupportedOperationError(
    `Task ${head.id} has ended (${TaskState[state]}); start a new task to go on.`,
  );
}

export function requireTaskId(id: string | undefined): string {
  if (!id || id.trim() === '') throw new RequestMalformedError('a task id is required');
  return id;
}

/**
 * An ordinary message keeps no `command` or `task_ref` its sender put in its
 * metadata: stored, those tags mark the command path's own messages, which the
 * model never sees (SEMANTICS §3) and whose replies retries look for (§8).
 */
function withoutClaimedTags(message: Message): Message {
  return message.metadata ? { ...message, metadata: withoutReplyTags(message.metadata) } : message;
}

/** The checks the SDK skips: a message needs an id, a user role and at least one part. */
function checkMessage(message: Message | undefined): Message {
  if (!message) throw new RequestMalformedError('params.message is required');
  if (!message.messageId) throw new RequestMalformedError('message.messageId is required');
  if (message.role !== Role.ROLE_USER)
    throw new RequestMalformedError('message.role must be ROLE_USER');
  if (message.parts.length === 0)
    throw new RequestMalformedError('message.parts must not be empty');
  return message;
}
