/**
 * limits.queuedPerTask holds for messages sent at the same moment: the check
 * is made in the write that stores the message, so a burst to an idle task
 * leaves exactly the running turn and `queuedPerTask` waiting, on one
 * instance and across instances sharing PostgreSQL. The rest are refused
 * with -32004 and not stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';
import { storeKinds, testDatabaseUrl } from 'a2a-testing/stores';

const QUEUED_PER_TASK = 16;
/** Long enough that no turn of the burst ends while it is being sent. */
const LONG_TURN = 'wait '.repeat(300).trim();
const config = { offline: { latencyMs: 20 }, limits: { queuedPerTask: QUEUED_PER_TASK } };

/** Sends `count` messages to one idle task at once, spread over `urls`; returns what was accepted. */
async function burst(urls: string[], count: number) {
  const created = await rpc(urls[0]!, 'SendMessage', { message: userText('/title burst') });
  const taskId = created.body.result.task.id as string;
  const messages = Array.from({ length: count }, (_, i) =>
    userText(`${LONG_TURN} ${i}`, { taskId }),
  );
  const answers = await Promise.all(
    messages.map((message, i) =>
      rpc(urls[i % urls.length]!, 'SendMessage', {
        message,
        configuration: { returnImmediately: true },
      }),
    ),
  );
  const accepted = messages.filter((_, i) => answers[i]!.body.result).map((m) => m.messageId);
  const refused = answers.flatMap((answer) =>
    answer.body.error ? [answer.body.error as { code: number; message: string }] : [],
  );
  const task = (await rpc(urls[0]!, 'GetTask', { id: taskId })).body.result;
  const stored = (task.history as { role: string; messageId: string; parts: { text?: string }[] }[])
    .filter((m) => m.role === 'ROLE_USER' && !m.parts[0]?.text?.startsWith('/'))
    .map((m) => m.messageId);
  await rpc(urls[0]!, 'CancelTask', { id: taskId });
  return { accepted, refused, stored };
}

function expectLimitHeld(result: Awaited<ReturnType<typeof burst>>, count: number): void {
  // One runs; queuedPerTask wait behind it.
  expect(result.accepted).toHaveLength(QUEUED_PER_TASK + 1);
  expect(result.refused).toHaveLength(count - QUEUED_PER_TASK - 1);
  for (const error of result.refused) {
    expect(error.code).toBe(-32004);
    expect(error.message).toContain(`already has ${QUEUED_PER_TASK} messages waiting`);
  }
  expect([...result.stored].sort()).toEqual([...result.accepted].sort());
}

describe.each(storeKinds)('one instance on %s', (kind) => {
  let harness: TestHarness;
  beforeAll(async () => {
    harness = await startHarness({ config, databaseUrl: testDatabaseUrl(kind) });
  });
  afterAll(() => harness.stop());

  it('40 messages sent at once to an idle task: one runs, 16 wait, the rest are refused and not stored', async () => {
    expectLimitHeld(await burst([harness.url], 40), 40);
  });
});

describe('three instances on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let instances: TestHarness[] = [];
  beforeAll(async () => {
    database = await freshPostgresDatabase('a2a_queue');
    for (let i = 0; i < 3; i++)
      instances.push(await startHarness({ config, databaseUrl: database.url }));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    instances = [];
    await database?.drop();
  });

  it('60 messages sent at once to one task through three instances: one runs, 16 wait, the rest are refused and not stored', async () => {
    expectLimitHeld(
      await burst(
        instances.map((instance) => instance.url),
        60,
      ),
      60,
    );
  });
});
