/**
 * Who owns a task is decided in one place: the resolver the store is given,
 * which the raw command paths and the SDK's `DatabaseTaskStore` both use.
 */
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext, type OwnerResolver } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessTaskStore, ownerContext, type HarnessDatabase } from '../src/store/index.js';
import { openTestDatabase, storeKinds } from 'a2a-testing/stores';

const caller = (userName: string) =>
  new ServerCallContext({ user: { isAuthenticated: true, userName } });

/** Owners by account, whatever the case of the name a caller signs in with. */
const byAccount: OwnerResolver = (context) =>
  `account:${(context.user?.userName || 'guest').toLowerCase()}`;

function message(text: string, role = Role.ROLE_USER): Message {
  return {
    messageId: crypto.randomUUID(),
    taskId: '',
    contextId: 'ctx',
    role,
    parts: [
      {
        content: { $case: 'text', value: text },
        mediaType: 'text/plain',
        filename: '',
        metadata: undefined,
      },
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function newTask(state = TaskState.TASK_STATE_INPUT_REQUIRED): Task {
  return {
    id: crypto.randomUUID(),
    contextId: crypto.randomUUID(),
    status: { state, message: undefined, timestamp: new Date().toISOString() },
    history: [message('first')],
    artifacts: [],
    metadata: {},
  };
}

describe.each(storeKinds)('task ownership on %s', (kind) => {
  let database: HarnessDatabase;
  let store: HarnessTaskStore;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    store = new HarnessTaskStore(database.db, { ownerResolver: byAccount });
  });
  afterAll(() => database.close());

  it('every read and write path scopes tasks by the resolver the store was given', async () => {
    const task = newTask();
    await store.create(task, caller('Alice'));
    const sameAccount = caller('alice');
    const command = message('/help');
    const reply = message('Commands: ...', Role.ROLE_AGENT);

    // The command path (raw statements), the SDK's store, and the checked path.
    expect((await store.loadHead(task.id, sameAccount))?.id).toBe(task.id);
    expect((await store.load(task.id, sameAccount))?.history).toHaveLength(1);
    const listed = await store.list(
      {
        tenant: '',
        contextId: task.contextId,
        status: 0,
        pageToken: '',
        pageSize: 50,
        statusTimestampAfter: undefined,
      },
      sameAccount,
    );
    expect(listed.tasks.map((t) => t.id)).toEqual([task.id]);
    expect(await store.appendReply(task.id, [command, reply], reply, sameAccount)).toBeDefined();
    expect(
      await store.update(task.id, sameAccount, {
        append: [message('again')],
      }),
    ).toBeDefined();
    expect(store.ownerOf(sameAccount)).toEqual({ tenant: '', owner: 'account:alice' });

    // Another account sees none of it.
    const bob = caller('bob');
    expect(await store.loadHead(task.id, bob)).toBeUndefined();
    expect(await store.load(task.id, bob)).toBeUndefined();
    expect(await store.appendReply(task.id, [message('/help'), reply], reply, bob)).toBeUndefined();
  });

  it('a context made for a stored owner reaches its tasks, whatever the resolver makes of its user', async () => {
    const task = newTask(TaskState.TASK_STATE_WORKING);
    await store.create(task, caller('Carol'));
    const left = (await store.tasksLeftRunning()).find((keys) => keys.id === task.id);
    expect(left).toMatchObject({ owner: 'account:carol', tenant: '' });
    const recovery = ownerContext(left!.owner, left!.tenant);
    expect(store.ownerOf(recovery).owner).toBe('account:carol');
    expect((await store.loadHead(task.id, recovery))?.id).toBe(task.id);
    expect((await store.load(task.id, recovery))?.id).toBe(task.id);
  });
});
