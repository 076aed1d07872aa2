/**
 * SIGHUP reloads the `--api-keys` file of a running `a2a-harness serve`: a
 * removed key is refused from the next request on, its open streams end at
 * once, other requests already in flight finish, and a file that cannot be
 * used leaves the old keys in force.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { rpc, rpcStream, resultOf, userText, waitFor } from 'a2a-testing/http';
import { REVOKED_STREAM_MESSAGE } from '../src/serve/open-streams.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const CAROL = 'carol-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
/** Each word of an offline answer takes this long: a long message makes a turn that lasts. */
const WORD_MS = 60;
const slowText = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(' ');

let dir: string;
let keyFile: string;
let harness: HarnessProcess;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-keys-'));
  keyFile = path.join(dir, 'keys.txt');
  writeFileSync(keyFile, `alice=${ALICE}\nbob=${BOB}\n`);
  const config = writeConfig(dir, { offline: { latencyMs: WORD_MS } });
  harness = await spawnHarness([
    '--data',
    path.join(dir, 'data'),
    '--config',
    config,
    '--api-keys',
    keyFile,
  ]);
});
afterAll(async () => {
  harness.child.kill('SIGTERM');
  await harness.exited;
});

const listTasks = (key: string) => rpc(harness.url, 'ListTasks', {}, as(key));

/** Sends SIGHUP and waits for the log line the reload ends with; returns that line. */
async function hangUp(): Promise<Record<string, unknown>> {
  const seen = harness.logs.length;
  harness.child.kill('SIGHUP');
  return waitFor(
    async () => harness.logs.slice(seen).find((entry) => String(entry.msg).startsWith('API keys')),
    'the reload to be logged',
  );
}

describe('SIGHUP', () => {
  it('a removed key is refused at once, while requests in flight finish', async () => {
    expect((await listTasks(ALICE)).status).toBe(200);
    expect((await listTasks(BOB)).status).toBe(200);

    // In flight across the reload: Bob's blocking SendMessage and Alice's stream.
    const bobTurn = rpc(harness.url, 'SendMessage', { message: userText(slowText(40)) }, as(BOB));
    let bobAnswered = false;
    void bobTurn.then(() => (bobAnswered = true));
    const aliceStream = await rpcStream(
      harness.url,
      'SendStreamingMessage',
      { message: userText(slowText(40)) },
      as(ALICE),
    );
    const first = resultOf(await aliceStream.events.next());
    expect(first.task.status.state).toBe('TASK_STATE_WORKING');

    writeFileSync(keyFile, `bob=${BOB}\ncarol=${CAROL}\n`);
    const reloaded = await hangUp();
    expect(reloaded).toMatchObject({
      msg: 'API keys reloaded',
      principals: ['bob', 'carol'],
      added: ['carol'],
      removed: ['alice'],
    });
    expect(bobAnswered).toBe(false);

    // The first request after the reload: no grace period for a removed key.
    const refused = await listTasks(ALICE);
    expect(refused.status).toBe(401);
    expect((await listTasks(CAROL)).status).toBe(200);

    const bobAnswer = await bobTurn;
    expect(bobAnswer.status).toBe(200);
    expect(bobAnswer.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(bobAnswer.body.result.task.status.message.parts[0].text).toContain('word39');
    // Alice's stream was ended by the reload, with an error event, before her turn was done.
    const rest = await aliceStream.events.rest();
    expect(rest.at(-1).error.message).toBe(REVOKED_STREAM_MESSAGE);
    expect(rest.some((event) => event.result?.statusUpdate?.status?.message)).toBe(false);
    expect((await listTasks(BOB)).status).toBe(200);
  });

  it('a revoked key stops reading: its SubscribeToTask stream on an idle task and its streaming send end at the reload; other keys’ streams go on', async () => {
    writeFileSync(keyFile, `bob=${BOB}\ncarol=${CAROL}\n`);
    await hangUp();
    const created = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/help') },
      as(CAROL),
    );
    const taskId = created.body.result.task.id;
    const carolWatch = await rpcStream(harness.url, 'SubscribeToTask', { id: taskId }, as(CAROL));
    expect(resultOf(await carolWatch.events.next()).task.id).toBe(taskId);
    const carolTurn = await rpcStream(
      harness.url,
      'SendStreamingMessage',
      { message: userText(slowText(60)) },
      as(CAROL),
    );
    expect(resultOf(await carolTurn.events.next()).task).toBeDefined();
    const bobTask = (await rpc(harness.url, 'SendMessage', { message: userText('/help') }, as(BOB)))
      .body.result.task.id;
    const bobWatch = await rpcStream(harness.url, 'SubscribeToTask', { id: bobTask }, as(BOB));
    expect(resultOf(await bobWatch.events.next()).task.id).toBe(bobTask);

    // Carol's key is rotated: the old one is gone, though Carol still has a key.
    const CAROL_NEW = 'carol-new-key-0123456789abcdef';
    writeFileSync(keyFile, `bob=${BOB}\ncarol=${CAROL_NEW}\n`);
    await hangUp();
    for (const stream of [carolWatch, carolTurn]) {
      const rest = await stream.events.rest();
      expect(rest.at(-1).error.message).toBe(REVOKED_STREAM_MESSAGE);
    }
    // The owner's next message on the task reaches no stream of the old key: both have ended.
    const again = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/help', { taskId }) },
      as(CAROL_NEW),
    );
    expect(again.status).toBe(200);
    expect((await rpc(harness.url, 'SubscribeToTask', { id: taskId }, as(CAROL))).status).toBe(401);
    // Bob's stream is still open: it gets the reply to his next command.
    await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/help', { taskId: bobTask }) },
      as(BOB),
    );
    expect(resultOf(await bobWatch.events.next()).statusUpdate.metadata).toEqual({
      command: 'help',
    });
    await bobWatch.events.cancel();
    writeFileSync(keyFile, `bob=${BOB}\ncarol=${CAROL}\n`);
    await hangUp();
  });

  it('a file that cannot be used leaves the old keys in force, and the server running', async () => {
    writeFileSync(keyFile, `bob=${BOB}\nthis line has no equals sign\n`);
    const line = await hangUp();
    expect(line).toMatchObject({
      level: 50,
      msg: 'API keys not reloaded: the old keys stay in force',
    });
    expect(String(line.err)).toContain('expected principal=key');
    expect((await listTasks(BOB)).status).toBe(200);
    expect((await listTasks(CAROL)).status).toBe(200);
    expect((await listTasks(ALICE)).status).toBe(401);

    writeFileSync(keyFile, '# nobody\n');
    const empty = await hangUp();
    expect(empty.level).toBe(50);
    expect((await listTasks(CAROL)).status).toBe(200);
  });
});
