/**
 * The real CLI as a process: kill -9 in the middle of a model turn, restart on
 * the same data, and everything is still there; SIGTERM ends turns cleanly.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, rpcStream, resultOf, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { processStore, storeKinds } from 'a2a-testing/stores';

/**
 * A crashed instance's turns end once its lease lapses, which the restarted
 * instance waits out: the product's 10 s would be waited out in each
 * PostgreSQL case. The least the config takes is safe here: the database is
 * the test's own and only one instance is alive at a time, so nothing can take
 * a live instance's turns while a busy machine delays a renewal.
 */
const LEASE_MS = 1000;

/** A config file of its own folder: instances on one data folder may each have theirs. */
const configFile = (config: unknown) =>
  writeConfig(mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-config-')), config);

describe.each(storeKinds)('on %s', (kind) => {
  it('kill -9 mid-turn, then restart: tasks, history, model and title are kept; the turn ends with a note', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-crash-'));
    const store = await processStore(kind, { ownDatabase: 'a2a_restart' });
    const on = ['--data', dataDir, ...store.flags];
    // Slow words keep the turn running when the kill comes; the restarted
    // instance answers at once, as the task going on needs no more.
    const slow = configFile({ offline: { latencyMs: 300 }, cluster: { leaseMs: LEASE_MS } });
    const quick = configFile({ offline: { latencyMs: 1 } });

    const first = await spawnHarness([...on, '--config', slow]);
    const send = (url: string, text: string, taskId?: string) =>
      rpc(url, 'SendMessage', { message: userText(text, taskId ? { taskId } : {}) });
    const created = (await send(first.url, '/title Crash test')).body.result.task;
    const taskId = created.id;
    await send(first.url, '/model offline/echo', taskId);
    await send(first.url, '/system Be kind.', taskId);
    const { events } = await rpcStream(first.url, 'SendStreamingMessage', {
      message: userText('a question that takes a while', { taskId }),
    });
    expect(resultOf(await events.next()).task.id).toBe(taskId);
    await events.next(); // the turn is working
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();

    const second = await spawnHarness([...on, '--config', quick]);
    try {
      // Said once the turn is ended: at start-up, or on PostgreSQL by a later sweep
      // when the database had not yet seen the first instance go. Log lines reach
      // stdout in batches, so the line may come after the task already shows the end.
      const saidSo = new Set([
        'ended turns interrupted by the last stop',
        'ended turns of an instance that stopped',
      ]);
      const said = await second.logLine((line) => saidSo.has(String(line.msg)));
      expect(said.tasks).toEqual([taskId]);
      const task = (await rpc(second.url, 'GetTask', { id: taskId })).body.result;
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(task.status.message.parts[0].text).toMatch(/interrupted/);
      const settings = task.metadata['a2a-harness'];
      expect(settings).toMatchObject({
        title: 'Crash test',
        model: 'offline/echo',
        system: 'Be kind.',
      });
      const texts = task.history.map((m: any) => m.parts[0].text as string);
      expect(texts).toContain('a question that takes a while');
      expect(new Set(task.history.map((m: any) => m.messageId)).size).toBe(task.history.length);
      // The task goes on.
      const next = (await send(second.url, 'try again', taskId)).body.result.task;
      expect(next.status.message.parts[0].text).toContain('You said: try again');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      await store.drop();
    }
  });
});

it('SIGTERM on an idle instance still finishes its stop: "stopped" is said and the database closed', async () => {
  // Nothing in flight keeps the process alive while it stops: only what the stop waits on.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-idle-term-'));
  const running = await spawnHarness(['--data', dataDir]);
  expect(existsSync(path.join(dataDir, 'tasks.db-wal'))).toBe(true);
  running.child.kill('SIGTERM');
  expect(await running.exited).toBe(0);
  expect(running.logs.map((l) => l.msg)).toEqual(
    expect.arrayContaining(['shutting down', 'stopped']),
  );
  // The last connection to close copies the WAL back and removes it.
  expect(existsSync(path.join(dataDir, 'tasks.db-wal'))).toBe(false);
});

it('SIGTERM stops accepting, ends the turn in flight with a note, closes the database and exits 0', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-term-'));
  const config = writeConfig(dataDir, { offline: { latencyMs: 300 } });
  const running = await spawnHarness(['--data', dataDir, '--config', config]);
  const { events } = await rpcStream(running.url, 'SendStreamingMessage', {
    message: userText('a long one'),
  });
  const taskId = resultOf(await events.next()).task.id;
  await events.next();
  running.child.kill('SIGTERM');
  const rest = (await events.rest()).map(resultOf);
  expect(rest.at(-1)?.statusUpdate?.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  expect(await running.exited).toBe(0);
  expect(running.logs.map((l) => l.msg)).toEqual(
    expect.arrayContaining(['shutting down', 'stopped']),
  );

  const again = await spawnHarness(['--data', dataDir, '--config', config]);
  try {
    const task = (await rpc(again.url, 'GetTask', { id: taskId })).body.result;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.status.message.parts[0].text).toMatch(/shut down/);
  } finally {
    again.child.kill('SIGTERM');
    await again.exited;
  }
});

describe('request ids in log lines', () => {
  // One process for both: debug lines, and a model that fails at once (nothing
  // listens on port 1) for the line a turn logs.
  let running: HarnessProcess;
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-logs-'));
    const config = writeConfig(dataDir, {
      providers: [{ name: 'nowhere', baseUrl: 'http://127.0.0.1:1/v1', models: ['m'] }],
      defaultModel: 'nowhere/m',
    });
    running = await spawnHarness(['--data', dataDir, '--config', config, '--log-level', 'debug']);
  });
  afterAll(async () => {
    running.child.kill('SIGTERM');
    await running.exited;
  });

  const sendWithId = (requestId: string) =>
    fetch(`${running.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'A2A-Version': '1.0',
        'X-Request-Id': requestId,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: userText('hi') },
      }),
    });

  it('every log line written while a request is handled carries its request id', async () => {
    const response = await sendWithId('trace-42');
    expect(response.headers.get('x-request-id')).toBe('trace-42');
    await response.json();
    const completed = await running.logLine(
      (l) => l.requestId === 'trace-42' && l.msg === 'request completed',
    );
    expect(completed).toMatchObject({
      req: { method: 'POST', url: '/a2a/jsonrpc' },
      res: { statusCode: 200 },
    });
  });

  it("a line logged by the turn a request started (a failed model call) carries that request's id", async () => {
    const { result } = await (await sendWithId('trace-turn-7')).json();
    const taskId = result.task.id as string;
    const failed = await running.logLine(
      (l) => l.msg === 'model turn failed' && l.taskId === taskId,
    );
    expect(failed).toMatchObject({ requestId: 'trace-turn-7', modelId: 'nowhere/m' });
  });
});
