/**
 * An instance alone on its PostgreSQL tells no one: it sends a NOTIFY only
 * while another instance holds a lease. A second instance that joins while a
 * turn streams still hears the rest of it. A test connection listens on the
 * channel and sees every notification the database sends.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { CHANNEL } from '../src/cluster/index.js';

/** The offline model waits this long before each word it streams. */
const WORD_MS = 40;

const words = (count: number, word: string) =>
  Array.from({ length: count }, (_, i) => `${word}${i}`).join(' ');

let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
let listener: pg.Client;
/** Each notification's task id (its head is `<origin> <kind> <taskId> <body>`). */
const notifiedTasks: string[] = [];
/** Each notification whole. */
const payloads: string[] = [];
const harnesses: TestHarness[] = [];

const start = async () => {
  const harness = await startHarness({
    databaseUrl: database.url,
    config: { offline: { latencyMs: WORD_MS } },
  });
  harnesses.push(harness);
  return harness;
};

beforeAll(async () => {
  database = await freshPostgresDatabase('a2a_lone');
  listener = new pg.Client({ connectionString: database.url });
  await listener.connect();
  listener.on('notification', (notification) => {
    payloads.push(notification.payload ?? '');
    notifiedTasks.push((notification.payload ?? '').split(' ')[2] ?? '');
  });
  await listener.query(`LISTEN ${CHANNEL}`);
}, 60_000);

afterAll(async () => {
  for (const harness of harnesses) await harness.stop();
  await listener?.end();
  await database?.drop();
}, 60_000);

describe('NOTIFY only while another instance can listen', () => {
  let loneTask: string;
  let sharedTask: string;

  it("a lone instance streams a whole turn, then answers a command on the turn's task", async () => {
    const alone = await start();
    const { body } = await rpc(alone.url, 'SendMessage', { message: userText(words(20, 'lone')) });
    expect(body.error).toBeUndefined();
    loneTask = body.result.task.id;
    expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const help = await rpc(alone.url, 'SendMessage', {
      message: userText('/help', { taskId: loneTask }),
    });
    expect(help.body.result.task.status.message.metadata).toEqual({ command: 'help' });
  });

  it('an instance that joins while a turn streams hears the rest of it', async () => {
    const [first] = harnesses;
    const { events: stream } = await rpcStream(first!.url, 'SendStreamingMessage', {
      message: userText(words(60, 'shared')),
    });
    const taskId = resultOf(await stream.next()).task.id as string;
    sharedTask = taskId;
    while (!resultOf(await stream.next()).artifactUpdate);

    const joined = await start();
    const { events: followed } = await rpcStream(joined.url, 'SubscribeToTask', { id: taskId });
    const heard = [];
    for (let raw = await followed.next(); raw !== undefined; raw = await followed.next()) {
      const event = resultOf(raw);
      heard.push(event);
      if (event.statusUpdate?.status?.state === 'TASK_STATE_INPUT_REQUIRED') break;
    }
    await stream.rest();
    // Words streamed after it joined came over the bus, then the turn's ending.
    expect(heard.filter((event) => event.artifactUpdate).length).toBeGreaterThan(0);
    expect(heard.at(-1).statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    // A command's reply is told to the instance that joined, inside the write that stores it.
    await rpc(first!.url, 'SendMessage', { message: userText('/help', { taskId }) });
    await waitFor(
      async () =>
        payloads.some((p) => p.includes(taskId) && p.includes('"command":"help"')) || undefined,
      "the shared task's command reply to be notified",
    );
  });

  it('the lone turn and command sent no notification; the shared ones did', async () => {
    await waitFor(
      async () => notifiedTasks.includes(sharedTask) || undefined,
      'the shared turn to notify',
    );
    // The bus sends in order, so any of the lone turn's would have come first.
    expect(notifiedTasks).not.toContain(loneTask);
  });
});
