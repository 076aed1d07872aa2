/**
 * The shared repository suite: every kind of change a task goes through, made
 * on a harness over SQLite and on one over PostgreSQL, then what GetTask,
 * ListTasks and SubscribeToTask return compared between the two. Both
 * databases must tell the same story; ids and times are compared by where
 * they first appear, not by value.
 *
 * The changes: a new task with a command and its reply; commands on an
 * existing task (one that changes metadata, with JSON's special characters);
 * turns that start and end each way a model can end them (finished, model
 * error, stopped), and a turn the harness fails outside the model call (a
 * stored message it cannot read); a message queued behind a running turn; a cancel; a fork's
 * copy; a sub-task's creation and its own turn. Then, on harness processes of
 * their own, a turn interrupted by kill -9 and ended by the restart's sweep.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { headers, rpc, SseReader, userText, waitFor } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { processStore } from 'a2a-testing/stores';
import { TURN_FAILED_NOTE } from '../src/turns/turn-endings.js';

/**
 * Quotes, backslashes, a newline, a tab, non-ASCII, an astral character and a
 * lone surrogate (valid in JSON text, not in UTF-8): JSON's hard cases.
 */
const AWKWARD = 'say "hi" \\ back\n\tto café ☃ 𝄞 \ud800 </script>';

let fake: FakeOpenAI;
let postgres: Awaited<ReturnType<typeof freshPostgresDatabase>>;
const harnesses: Record<'sqlite' | 'postgres', TestHarness | undefined> = {
  sqlite: undefined,
  postgres: undefined,
};

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test'], apiKey: 'sk-test' });
  postgres = await freshPostgresDatabase('a2a_suite');
  const options = {
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
    // A silent model holds its turn until /stop or CancelTask ends it.
    config: { defaultModel: 'openai/gpt-test', turns: { firstByteMs: 30_000 } },
  };
  harnesses.sqlite = await startHarness(options);
  harnesses.postgres = await startHarness({ ...options, databaseUrl: postgres.url });
}, 60_000);

afterAll(async () => {
  await harnesses.sqlite?.stop();
  await harnesses.postgres?.stop();
  await fake?.close();
  await postgres?.drop();
});

const textOf = (message: any): string =>
  (message?.parts ?? []).map((part: any) => part.text ?? '').join('');

async function getTask(url: string, id: string): Promise<any> {
  const { body } = await rpc(url, 'GetTask', { id });
  return body.result;
}

async function untilTask(url: string, id: string, done: (task: any) => boolean): Promise<any> {
  return waitFor(async () => {
    const task = await getTask(url, id);
    return task && done(task) ? task : undefined;
  }, `task ${id} to settle`);
}

const lastText = (task: any) => textOf(task.history.at(-1));

/** Sets a stored message's text as it is in the database, under the harness's feet; returns what it was. */
type RewriteMessage = (messageId: string, text: string) => Promise<string>;

const MESSAGES = 'a2a_harness_messages';

function rewriteOn(kind: 'sqlite' | 'postgres'): RewriteMessage {
  if (kind === 'sqlite') {
    return async (messageId, text) => {
      const file = path.join(harnesses.sqlite!.dataDir, 'tasks.db');
      const db = new SqliteDatabase(file, { timeout: 10_000 });
      try {
        const { message } = db
          .prepare(`select message from ${MESSAGES} where message_id = ?`)
          .get(messageId) as { message: string };
        db.prepare(`update ${MESSAGES} set message = ? where message_id = ?`).run(text, messageId);
        return message;
      } finally {
        db.close();
      }
    };
  }
  return async (messageId, text) => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const { rows } = await client.query(`select message from ${MESSAGES} where message_id = $1`, [
        messageId,
      ]);
      await client.query(`update ${MESSAGES} set message = $1 where message_id = $2`, [
        text,
        messageId,
      ]);
      return rows[0].message as string;
    } finally {
      await client.end();
    }
  };
}

/** The message of the turn that fails before the model call. */
const BROKEN_TURN_TEXT = 'read your history';

/** The same changes, in the same order, on one harness; returns the tasks it made. */
async function runChanges(url: string, rewrite: RewriteMessage): Promise<string[]> {
  const send = async (text: string, taskId?: string, returnImmediately = false) => {
    const { body } = await rpc(url, 'SendMessage', {
      message: userText(text, taskId ? { taskId } : {}),
      ...(returnImmediately && { configuration: { returnImmediately: true } }),
    });
    expect(body.error).toBeUndefined();
    return body.result.task ?? body.result;
  };
  const working = (id: string) =>
    untilTask(url, id, (task) => task.status.state === 'TASK_STATE_WORKING');
  const idle = (id: string, last: string) =>
    untilTask(
      url,
      id,
      (task) => task.status.state === 'TASK_STATE_INPUT_REQUIRED' && lastText(task).includes(last),
    );

  // A new task with its command and reply, then commands on it.
  const task = (await send('/help')).id as string;
  await send(`/title ${AWKWARD}`, task);
  await send('/model openai/gpt-test', task);
  // A turn that finishes, and one the model fails.
  await send(AWKWARD, task);
  fake.failNext(1, 500, 'the model is down');
  await send('fail this one', task);
  // A turn that is stopped, with a message queued behind it that then runs.
  fake.misbehave('silent');
  await send('hang on', task, true);
  await working(task);
  await send('queued behind', task, true);
  fake.misbehave(undefined);
  await send('/stop', task);
  await idle(task, 'queued behind');
  // A fork's copy, and a sub-task whose first prompt runs as its own turn.
  const fork = (await send('/fork', task)).status.message.metadata.task_ref as string;
  const spawned = (await send('/spawn write a haiku', task)).status.message.metadata
    .task_ref as string;
  await idle(spawned, 'write a haiku');
  // A task canceled while its turn runs.
  const canceled = (await send('/help')).id as string;
  fake.misbehave('silent');
  await send('hang on', canceled, true);
  await working(canceled);
  const { body } = await rpc(url, 'CancelTask', { id: canceled });
  expect(body.error).toBeUndefined();
  fake.misbehave(undefined);
  await untilTask(url, canceled, (t) => t.status.state === 'TASK_STATE_CANCELED');
  // A turn the harness fails outside the model call: a stored message of the task's
  // history that it cannot read. The turn still ends, with the generic note.
  const broken = await send('/help');
  const commandId = broken.history[0].messageId as string;
  const stored = await rewrite(commandId, 'not a message');
  const modelCalls = fake.requests.length;
  const failed = await send(BROKEN_TURN_TEXT, broken.id);
  await rewrite(commandId, stored);
  expect(failed.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  expect(textOf(failed.status.message)).toBe(TURN_FAILED_NOTE);
  // Failed before the model was asked: the harness's failure, not the model's.
  // Asked by this turn's text, not by a count: on a loaded machine a request
  // of an earlier turn can still arrive meanwhile (seen once in a full run).
  const asked = fake.requests.slice(modelCalls).map((request) => JSON.stringify(request.body));
  expect(asked.filter((body) => body.includes(BROKEN_TURN_TEXT))).toEqual([]);
  return [task, fork, spawned, canceled, broken.id];
}

/** The first event SubscribeToTask sends for the task, or its error. */
async function subscribe(url: string, id: string): Promise<unknown> {
  const response = await fetch(`${url}/a2a/jsonrpc`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id } }),
  });
  // A refusal before the stream starts is an ordinary JSON-RPC answer.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
    return { error: ((await response.json()) as { error: { code: number } }).error.code };
  const events = new SseReader(response);
  try {
    const first = await events.next();
    return first.error ? { error: first.error.code } : first.result;
  } finally {
    await events.cancel();
  }
}

/** What the three reads return, for the tasks `runChanges` made. */
async function observe(url: string, tasks: string[]): Promise<unknown> {
  const got = [];
  for (const id of tasks) got.push(await getTask(url, id));
  const listed = (await rpc(url, 'ListTasks', { pageSize: 100, historyLength: 100 })).body.result;
  const subscribed = [];
  for (const id of tasks) subscribed.push(await subscribe(url, id));
  return { got, listed, subscribed };
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** Ids as the order they first appear in, times as a mark: what two runs can share. */
function comparable(value: unknown): unknown {
  const ids = new Map<string, string>();
  const text = JSON.stringify(value)
    .replace(ID, (id) => {
      if (!ids.has(id)) ids.set(id, `id#${ids.size}`);
      return ids.get(id)!;
    })
    .replace(TIME, 'time');
  return JSON.parse(text);
}

describe('the same changes on SQLite and on PostgreSQL', () => {
  const seen: Partial<Record<'sqlite' | 'postgres', unknown>> = {};

  it.each(['sqlite', 'postgres'] as const)(
    'every change runs on %s',
    async (kind) => {
      const url = harnesses[kind]!.url;
      const tasks = await runChanges(url, rewriteOn(kind));
      seen[kind] = comparable(await observe(url, tasks));
    },
    60_000,
  );

  it('GetTask, ListTasks and SubscribeToTask return the same on both', () => {
    expect(seen.sqlite).toBeDefined();
    expect(seen.postgres).toEqual(seen.sqlite);
  });
});

/** A harness process on its own data (a fresh PostgreSQL database for `postgres`), to kill and restart. */
async function harnessProcesses(kind: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-suite-crash-'));
  const config = writeConfig(dataDir, {
    defaultModel: 'openai/gpt-test',
    turns: { firstByteMs: 30_000 },
    // The restart is on another port, so its sweep ends the killed run's turn once
    // that run's lease runs out: 3 s rather than the default 10.
    cluster: { leaseMs: 3000 },
  });
  const store = await processStore(kind, { ownDatabase: 'a2a_suite_crash' });
  const args = ['--data', dataDir, '--config', config, ...store.flags];
  const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl };
  return { start: () => spawnHarness(args, env), drop: store.drop };
}

describe('a turn kill -9 cut short, ended by the restart, on SQLite and on PostgreSQL', () => {
  const seen: Partial<Record<'sqlite' | 'postgres', unknown>> = {};

  it.each(['sqlite', 'postgres'] as const)(
    'the interrupted ending on %s',
    async (kind) => {
      const processes = await harnessProcesses(kind);
      let second: HarnessProcess | undefined;
      try {
        const first = await processes.start();
        const created = await rpc(first.url, 'SendMessage', { message: userText('/help') });
        const task = created.body.result.task.id as string;
        fake.misbehave('silent');
        const hanging = await rpc(first.url, 'SendMessage', {
          message: userText('hang on', { taskId: task }),
          configuration: { returnImmediately: true },
        });
        expect(hanging.body.error).toBeUndefined();
        await untilTask(first.url, task, (t) => t.status.state === 'TASK_STATE_WORKING');
        first.child.kill('SIGKILL');
        await first.exited;
        fake.misbehave(undefined);

        second = await processes.start();
        const url = second.url;
        // On PostgreSQL the sweep waits for the dead instance's lease to run out.
        await waitFor(
          async () => {
            const got = await getTask(url, task);
            return got?.status.state === 'TASK_STATE_INPUT_REQUIRED' &&
              /interrupted/.test(lastText(got))
              ? got
              : undefined;
          },
          'the interrupted turn to end',
          400,
        );
        // The task takes a turn again after the sweep.
        const again = await rpc(url, 'SendMessage', {
          message: userText('after the restart', { taskId: task }),
        });
        expect(again.body.error).toBeUndefined();
        await untilTask(
          url,
          task,
          (t) =>
            t.status.state === 'TASK_STATE_INPUT_REQUIRED' &&
            textOf(t.history.at(-2)).includes('after the restart'),
        );
        seen[kind] = comparable(await observe(url, [task]));
      } finally {
        fake.misbehave(undefined);
        second?.child.kill('SIGTERM');
        await second?.exited;
        await processes.drop();
      }
    },
    120_000,
  );

  it('GetTask, ListTasks and SubscribeToTask return the same on both', () => {
    expect(seen.sqlite).toBeDefined();
    expect(seen.postgres).toEqual(seen.sqlite);
  });
});
