import {
  Part,
  TaskState,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
  type TaskStatus,
} from '@a2a-js/sdk';
import { RequestMalformedError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskHead } from 'a2a-commands/server';
import { commandReplyEvent } from 'a2a-commands/server/internal';
import { hangUpSignal } from '../request-scope.js';
import { MessageIdTakenError, type HarnessTaskStore } from '../store/index.js';
import { answerTo } from '../turns/model-context.js';
import type { EventSubscription, TaskEvents } from '../turns/task-events.js';
import { status, statusEvent, taskEvent, TERMINAL_STATES } from '../turns/turn-events.js';
import { ForwardingHandler } from './forwarding-handler.js';

export interface MessageRetriesOptions {
  store: HarnessTaskStore;
  events: TaskEvents;
}

/** What a message sent again gets: the outcome of the first copy. */
interface Replay {
  result(): Promise<Task>;
  stream(): AsyncGenerator<StreamResponse, void, undefined>;
}

/**
 * SEMANTICS §8: (task, messageId) names one message. A message sent again on
 * its task (a client retrying after a timeout or a crash) gets the outcome of
 * the first copy, the stored reply of a command or the same turn of an
 * ordinary message, and nothing runs or is stored twice. A different message
 * under an id the task holds is refused. Copies that arrive together wait for
 * the first; across instances, the store refuses the second write of a turn's
 * message (`appendOnce`), and the copy is then replayed too.
 */
export class MessageRetries extends ForwardingHandler {
  private readonly firstCopies = new Map<string, Promise<void>>();

  constructor(
    inner: A2ARequestHandler,
    private readonly options: MessageRetriesOptions,
  ) {
    super(inner);
  }

  override async sendMessage(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    const message = params.message;
    if (!message?.taskId || !message.messageId) return this.inner.sendMessage(params, context);
    const release = await this.takeTurn(message);
    try {
      const replay = await this.replayOf(message, context);
      if (replay) {
        release();
        return await replay.result();
      }
      return await this.inner.sendMessage(params, context);
    } catch (error) {
      // Another instance stored the same message first.
      const late = error instanceof MessageIdTakenError && (await this.replayOf(message, context));
      if (late) return late.result();
      throw error;
    } finally {
      release();
    }
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const message = params.message;
    if (!message?.taskId || !message.messageId) {
      yield* this.inner.sendMessageStream(params, context);
      return;
    }
    const release = await this.takeTurn(message);
    try {
      const replay = await this.replayOf(message, context);
      if (replay) {
        release();
        yield* replay.stream();
        return;
      }
      // Held until the first event: by then the message is stored, and a copy finds it.
      for await (const event of this.inner.sendMessageStream(params, context)) {
        release();
        yield event;
      }
    } catch (error) {
      const late = error instanceof MessageIdTakenError && (await this.replayOf(message, context));
      if (!late) throw error;
      yield* late.stream();
    } finally {
      release();
    }
  }

  /**
   * Copies of one message take turns: the first looks for it, stores it and
   * runs it; each later copy then finds it stored. Returns the release.
   */
  private async takeTurn(message: Message): Promise<() => void> {
    const key = `${message.taskId}\u0000${message.messageId}`;
    // Checked and taken in one step after the last wait: no two copies hold it at once.
    for (let earlier = this.firstCopies.get(key); earlier; earlier = this.firstCopies.get(key)) {
      await earlier;
    }
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.firstCopies.set(key, held);
    // Called on every streamed event: settling a settled promise again calls
    // Node's promise hook each time, so only the first call does anything.
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.firstCopies.get(key) === held) this.firstCopies.delete(key);
      release();
    };
  }

  /** How to answer `incoming` if its id is already stored on its task; undefined when it is new. */
  private async replayOf(
    incoming: Message,
    context: ServerCallContext,
  ): Promise<Replay | undefined> {
    const taskId = incoming.taskId!;
    const { store } = this.options;
    // Most messages are new: one index probe (on PostgreSQL with the head the handler then reads).
    const stored = await store.findMessage(taskId, incoming.messageId, context);
    if (!stored) return undefined;
    // Not the caller's task, or none: the handler behind says so, as it always does.
    const head = await store.loadHead(taskId, context);
    if (!head) return undefined;
    if (!sameMessage(stored.message, incoming)) {
      throw new RequestMalformedError(
        `messageId '${incoming.messageId}' is already used on task ${taskId} by a different message; send this one under a new messageId.`,
      );
    }
    // Only the command path tags what it stores as a command; it stores the reply linked to it.
    const command = stored.message.metadata?.['command'];
    if (typeof command === 'string') {
      const reply = await store.findReply(taskId, incoming.messageId);
      if (reply) return commandReplay(head, stored.message, reply);
      throw new UnsupportedOperationError(
        `message '${incoming.messageId}' on task ${taskId} was a command whose reply is not stored; send it again under a new messageId.`,
      );
    }
    return this.turnReplay(head, stored.message, context);
  }

  /** The same turn: its answer when it has ended, else the turn itself, followed to its end. */
  private turnReplay(head: TaskHead, message: Message, context: ServerCallContext): Replay {
    const { store, events } = this.options;
    const ended = async (): Promise<Message | undefined> =>
      answerTo(await store.loadHistory(head.id, context), message.messageId);
    const task = (taskStatus: TaskStatus | undefined, history: Message[]): Task => ({
      ...head,
      status: taskStatus,
      history,
      artifacts: [],
    });
    const endedStatus = (answer: Message) =>
      TERMINAL_STATES.has(head.status?.state ?? 0)
        ? head.status
        : status(TaskState.TASK_STATE_INPUT_REQUIRED, answer);
    return {
      async result() {
        const subscription = events.subscribe(head.id, hangUpSignal(context));
        try {
          let answer = await ended();
          if (!answer && !TERMINAL_STATES.has(head.status?.state ?? 0)) {
            await finalOf(subscription, message.messageId);
            answer = await ended();
          }
          return answer
            ? task(endedStatus(answer), [message, answer])
            : task(head.status, [message]);
        } finally {
          subscription.close();
        }
      },
      async *stream() {
        const subscription = events.subscribe(head.id, hangUpSignal(context));
        try {
          const answer = await ended();
          const soFar = subscription.answerSoFar;
          yield taskEvent({ ...task(head.status, [message]), artifacts: soFar ? [soFar] : [] });
          if (answer || TERMINAL_STATES.has(head.status?.state ?? 0)) {
            yield statusEvent(head, (answer && endedStatus(answer)) || head.status!);
            return;
          }
          for await (const { event, turnId, final } of subscription) {
            if (turnId !== message.messageId) continue;
            yield event;
            if (final) return;
          }
        } finally {
          subscription.close();
        }
      },
    };
  }
}

/** A command's stored reply, as SEMANTICS §3 shapes it. */
function commandReplay(head: TaskHead, command: Message, reply: Message): Replay {
  const replyStatus: TaskStatus = {
    state: head.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED,
    message: reply,
    timestamp: head.status?.timestamp ?? new Date().toISOString(),
  };
  return {
    async result() {
      return { ...head, status: replyStatus, history: [command, reply], artifacts: [] };
    },
    async *stream() {
      yield taskEvent({ ...head, history: [command], artifacts: [] });
      const event = commandReplyEvent({ ...head, status: replyStatus }, reply);
      yield { payload: { $case: 'statusUpdate', value: event } };
    },
  };
}

/** The status the turn's final event carries. */
async function finalOf(subscription: EventSubscription, turnId: string): Promise<void> {
  for await (const event of subscription) if (event.turnId === turnId && event.final) return;
}

/** The same message: the same role and parts (what the store adds, ids and tags, aside). */
function sameMessage(stored: Message, incoming: Message): boolean {
  if (stored.role !== incoming.role) return false;
  const wire = (message: Message) => JSON.stringify(message.parts.map((p) => Part.toJSON(p)));
  return wire(stored) === wire(incoming);
}
