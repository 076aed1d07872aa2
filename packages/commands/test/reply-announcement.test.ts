/**
 * The runner hands a reply's status update to the store with the write that
 * stores the reply; the store alone decides whether that write also told the
 * other processes, and the relay is told what it decided.
 */
import {
  TaskState,
  type Message,
  type StreamResponse,
  type TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { describe, expect, it } from 'vitest';
import { newMessage, textPart, USER } from '../src/message.js';
import { parseCommand } from '../src/parse.js';
import { CommandRegistry } from '../src/registry.js';
import type { CommandEffects, StoredReply, TaskHead } from '../src/server/command-task-store.js';
import { LiveStreams, type ToldOthers } from '../src/server/live-streams.js';
import { CommandRunner } from '../src/server/run-command.js';
import { CommandsTaskStore } from '../src/server/sdk-task-store.js';

const context = new ServerCallContext();

/** Keeps the event each append was handed; with `announce`, says its write told the others. */
class AnnouncingStore extends CommandsTaskStore {
  readonly handed: (TaskStatusUpdateEvent | undefined)[] = [];
  announce = false;

  override async appendReply(
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    callContext: ServerCallContext,
    effects?: CommandEffects,
    replyEvent?: TaskStatusUpdateEvent,
  ): Promise<StoredReply | undefined> {
    this.handed.push(replyEvent);
    const head = await super.appendReply(
      taskId,
      entries,
      statusMessage,
      callContext,
      effects,
      replyEvent,
    );
    return head && { ...head, announced: this.announce };
  }
}

/** An adopter's store written before the event was handed: five arguments, a plain head. */
class EarlierStore extends CommandsTaskStore {
  override appendReply(
    taskId: string,
    entries: Message[],
    statusMessage: Message,
    callContext: ServerCallContext,
    effects?: CommandEffects,
  ): Promise<TaskHead | undefined> {
    return super.appendReply(taskId, entries, statusMessage, callContext, effects);
  }
}

async function setup(
  store: CommandsTaskStore,
  relaying: () => void | Promise<void> = () => undefined,
) {
  const relayed: { event: StreamResponse; told?: ToldOthers }[] = [];
  const live = new LiveStreams({
    send: (_taskId, event, told) => {
      relayed.push({ event, told });
      return relaying();
    },
  });
  const registry = new CommandRegistry();
  registry.register({ name: 'ping', description: 'Answers pong', run: () => 'pong' });
  const runner = new CommandRunner({ store, live, sendPrompt: async () => undefined });
  await store.create(
    {
      id: 't1',
      contextId: 'c1',
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
      history: [],
      artifacts: [],
      metadata: {},
    },
    context,
  );
  // A stream open on the task in this process; the runner's event is its second.
  const stream = live.follow(openTask(), 't1');
  await stream.next();
  const local = async () => statusOf((await stream.next()).value as StreamResponse | undefined);
  const send = () => {
    const message = newMessage({ role: USER, parts: [textPart('/ping')], taskId: 't1' });
    return runner.run(message, parseCommand(message, registry)!, context);
  };
  return { relayed, local, send };
}

/** A stream that gives the task, then waits. */
async function* openTask(): AsyncGenerator<StreamResponse, void, undefined> {
  yield {
    payload: {
      $case: 'statusUpdate',
      value: { taskId: 't1', contextId: 'c1', status: undefined, metadata: undefined },
    },
  };
  await new Promise(() => undefined);
}

function statusOf(event: StreamResponse | undefined): TaskStatusUpdateEvent | undefined {
  return event?.payload?.$case === 'statusUpdate' ? event.payload.value : undefined;
}

describe('CommandRunner: the reply event goes to the store with its write', () => {
  it('hands the store the event it then publishes, and the store keeps its timestamp', async () => {
    const store = new AnnouncingStore();
    const { relayed, local, send } = await setup(store);

    const outcome = await send();

    const handed = store.handed[0]!;
    expect(handed).toEqual(outcome.event);
    expect(handed.status?.message).toBe(outcome.reply);
    expect(handed.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(handed.metadata).toEqual({ command: 'ping' });
    expect(await local()).toEqual(handed);
    expect(statusOf(relayed[0]!.event)).toEqual(handed);
    const stored = await store.load('t1', context);
    expect(stored?.status?.timestamp).toBe(handed.status?.timestamp);
  });

  it('a store whose write told the others: the relay hears so, and the event published is the one it told', async () => {
    const store = new AnnouncingStore();
    store.announce = true;
    const { relayed, local, send } = await setup(store);

    await send();

    expect(relayed).toHaveLength(1);
    expect(relayed[0]!.told).toEqual({ byStore: true });
    expect(statusOf(relayed[0]!.event)).toBe(store.handed[0]);
    expect(await local()).toBe(store.handed[0]);
  });

  it('a store whose write did not tell them: the relay hears that the store told nobody', async () => {
    const store = new AnnouncingStore();
    const { relayed, send } = await setup(store);

    await send();

    expect(relayed.map((r) => r.told)).toEqual([{ byStore: false }]);
  });

  it('an earlier store that ignores the event keeps working, and the relay sends the reply', async () => {
    const { relayed, local, send } = await setup(new EarlierStore());

    const outcome = await send();

    expect(relayed.map((r) => r.told)).toEqual([{ byStore: false }]);
    expect(statusOf(relayed[0]!.event)?.status?.message).toEqual(outcome.reply);
    expect(await local()).toEqual(outcome.event);
  });

  it('the answer waits until the relay has told the others: the next command cannot overtake its reply', async () => {
    let told: () => void = () => undefined;
    const telling = new Promise<void>((resolve) => (told = resolve));
    const { relayed, send } = await setup(new AnnouncingStore(), () => telling);

    let answered = false;
    const answer = send().then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(relayed).toHaveLength(1);
    expect(answered).toBe(false);

    told();
    await answer;
    expect(answered).toBe(true);
  });
});
