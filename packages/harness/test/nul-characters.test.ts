/**
 * PostgreSQL's text cannot hold U+0000, and SQLite can: an id with a NUL
 * failed as a database error on one and was stored on the other. Now both
 * refuse such an id with a clear error before anything is stored, and a text
 * part with a NUL is kept as it was sent, on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rest, rpc, userText } from 'a2a-testing/http';

const backends = ['sqlite', 'postgres'] as const;
const harnesses = new Map<string, TestHarness>();
const drops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  for (const backend of backends) {
    let databaseUrl: string | undefined;
    if (backend === 'postgres') {
      const database = await freshPostgresDatabase('nul_ids');
      databaseUrl = database.url;
      drops.push(database.drop);
    }
    harnesses.set(backend, await startHarness({ databaseUrl }));
  }
});
afterAll(async () => {
  for (const harness of harnesses.values()) await harness.stop();
  for (const drop of drops) await drop();
});

describe.each(backends)('on %s', (backend) => {
  const url = () => harnesses.get(backend)!.url;
  const taskCount = async () => (await rpc(url(), 'ListTasks', {})).body.result.totalSize;

  it.each(['messageId', 'contextId'])(
    'a %s with a NUL is refused, and nothing is stored',
    async (field) => {
      const before = await taskCount();
      const message = { ...userText('hello'), [field]: 'a\u0000b' };
      const { status, body } = await rpc(url(), 'SendMessage', { message });
      expect(status).toBe(200);
      expect(body.error?.code).toBe(-32602);
      expect(body.error?.message).toContain(`message.${field}`);
      expect(body.error?.message).toContain('NUL');
      expect(await taskCount()).toBe(before);
    },
  );

  it('a command with a NUL in its contextId is refused the same way', async () => {
    const { body } = await rpc(url(), 'SendMessage', {
      message: { ...userText('/help'), contextId: '\u0000' },
    });
    expect(body.error?.code).toBe(-32602);
  });

  it('a task id with a NUL names no task', async () => {
    const got = await rpc(url(), 'GetTask', { id: 'task\u0000id' });
    expect(got.body.error?.code).toBe(-32001);
    const sent = await rpc(url(), 'SendMessage', {
      message: userText('hi', { taskId: 't\u0000' }),
    });
    expect(sent.body.error?.code).toBe(-32602);
    const canceled = await rpc(url(), 'CancelTask', { id: 'task\u0000id' });
    expect(canceled.body.error?.code).toBe(-32001);
    const overRest = await rest(url(), `/tasks/${encodeURIComponent('x\u0000')}`);
    expect(overRest.status).toBe(404);
  });

  it('a ListTasks filter with a NUL in its contextId is refused', async () => {
    const { body } = await rpc(url(), 'ListTasks', { contextId: 'c\u0000' });
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain('contextId');
  });

  it('a text part with a NUL is stored and read back as sent', async () => {
    const { body } = await rpc(url(), 'SendMessage', { message: userText('/title a\u0000b') });
    const taskId = body.result.task?.id ?? body.result.message?.taskId;
    const task = (await rpc(url(), 'GetTask', { id: taskId })).body.result;
    expect(JSON.stringify(task.history)).toContain('a\\u0000b');
  });
});
