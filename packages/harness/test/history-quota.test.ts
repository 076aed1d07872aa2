/**
 * The history quota at the store, on SQLite and on PostgreSQL: history copied
 * into new tasks (a fork) is checked against limits.historyCharsPerOwner in
 * the transaction that stores it, so concurrent copies cannot all pass.
 */
import { TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessTaskStore, HistoryQuotaError, type HarnessDatabase } from '../src/store/index.js';
import { storedChars } from '../src/store/index.js';
import { openTestDatabase, storeKinds } from 'a2a-testing/stores';
import { textMessage } from 'a2a-commands/client';

const context = (name: string) =>
  new ServerCallContext({ user: { isAuthenticated: true, userName: name } });

/** A user message of `text` in the tasks' context. */
const message = (text: string): Message => textMessage(text, { contextId: 'ctx' });

function task(history: Message[]): Task {
  return {
    id: crypto.randomUUID(),
    contextId: 'ctx',
    status: {
      state: TaskState.TASK_STATE_INPUT_REQUIRED,
      message: undefined,
      timestamp: new Date().toISOString(),
    },
    history,
    artifacts: [],
    metadata: {},
  };
}

describe.each(storeKinds)('the history quota on %s', (kind) => {
  const QUOTA = 20_000;
  let database: HarnessDatabase;
  let store: HarnessTaskStore;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    store = new HarnessTaskStore(database.db, { historyCharsPerOwner: QUOTA });
  });
  afterAll(() => database.close());

  it('concurrent copies into new tasks never take an owner past the quota', async () => {
    const alice = context(`alice-${crypto.randomUUID()}`);
    const parents = [task([message('a'.repeat(1000))]), task([message('b'.repeat(1000))])];
    for (const parent of parents) await store.create(parent, alice);
    const copy = [message('c'.repeat(3000))];
    const size = storedChars(copy);
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        store.update(parents[i % 2]!.id, alice, { create: [task(copy)] }),
      ),
    );
    const stored = attempts.filter((a) => a.status === 'fulfilled').length;
    const refused = attempts.filter((a) => a.status === 'rejected');
    for (const refusal of refused)
      expect((refusal as PromiseRejectedResult).reason).toBeInstanceOf(HistoryQuotaError);
    expect(stored).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const left = await store.historyQuotaLeft(alice);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBeLessThan(size);
  });

  it("one owner's quota is not another's", async () => {
    const bob = context(`bob-${crypto.randomUUID()}`);
    expect(await store.historyQuotaLeft(bob)).toBe(QUOTA);
    const parent = task([message('hi')]);
    await store.create(parent, bob);
    await store.update(parent.id, bob, { create: [task([message('x'.repeat(3000))])] });
    expect(await store.historyQuotaLeft(bob)).toBeLessThan(QUOTA - 3000);
  });
});
