/**
 * Several harness instances behind one PostgreSQL, as behind a load balancer
 * without sticky sessions: three real processes on loopback ports, and a
 * client that spreads its calls across them round-robin. Any instance serves
 * any request for any task (docs/scaling.md).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rawGet,
  resultOf,
  rpc,
  rpcStream,
  userText,
  waitFor,
  type SseReader,
} from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';
import { processStore, type ProcessStore } from 'a2a-testing/stores';

/** The offline model waits this long before each word it streams. */
const WORD_LATENCY_MS = 20;
const PUBLIC_URL = 'http://agents.example.test';

let store: ProcessStore | undefined;
let dataDir: string;
let instances: HarnessProcess[] = [];
const alive = () =>
  instances.filter((instance) => instance.child.exitCode === null && !instance.child.killed);

let calls = 0;
/** The next instance, round-robin: the load balancer. */
const pick = (): HarnessProcess => {
  const live = alive();
  return live[calls++ % live.length]!;
};
const others = (one: HarnessProcess) => alive().filter((instance) => instance !== one);

const words = (count: number, word = 'word') =>
  Array.from({ length: count }, (_, i) => `${word}${i}`).join(' ');
const textOf = (message: any): string => message?.parts?.[0]?.text ?? '';
const isCommand = (message: any) => typeof message?.metadata?.command === 'string';
const stateOf = (event: any): string | undefined => event?.statusUpdate?.status?.state;

/** The instance that claimed the turn answering `turnId`, from its log. */
function runnerOf(turnId: string): Promise<HarnessProcess> {
  return waitFor(
    async () =>
      instances.find((instance) =>
        instance.logs.some((l) => l.msg === 'cluster: turn claimed' && l.turnId === turnId),
      ),
    `an instance to claim turn ${turnId}`,
  );
}

/** Stream events, unwrapped, up to and including the first that `last` accepts. */
async function readUntil(reader: SseReader, last: (event: any) => boolean): Promise<any[]> {
  const events = [];
  for (let raw = await reader.next(); raw !== undefined; raw = await reader.next()) {
    const event = resultOf(raw);
    events.push(event);
    if (last(event)) return events;
  }
  throw new Error(`the stream ended first, after ${JSON.stringify(events.at(-1))}`);
}

const endsTurn = (event: any) =>
  stateOf(event) === 'TASK_STATE_INPUT_REQUIRED' && !event.statusUpdate.metadata;

async function getTask(taskId: string) {
  return (await rpc(pick().listeningUrl, 'GetTask', { id: taskId })).body.result;
}

beforeAll(async () => {
  store = await processStore('postgres', { ownDatabase: 'a2a_scale' });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-scale-'));
  // A 4 s lease, as the cluster's fault tests use: kill -9 of an instance waits for it to run out.
  const config = writeConfig(dataDir, {
    offline: { latencyMs: WORD_LATENCY_MS },
    cluster: { leaseMs: 4000 },
  });
  // One data directory, so one command directory: as a shared volume would be.
  const args = [
    '--data',
    dataDir,
    '--config',
    config,
    ...store.flags,
    '--public-url',
    PUBLIC_URL,
    '--log-level',
    'debug',
  ];
  instances = await Promise.all([0, 1, 2].map(() => spawnHarness(args)));
}, 120_000);

afterAll(async () => {
  await Promise.all(
    alive().map(async (instance) => {
      instance.child.kill('SIGTERM');
      await instance.exited;
    }),
  );
  await store?.drop();
}, 60_000);

describe('three instances on one PostgreSQL, called round-robin', () => {
  it('every instance serves the same card with the same ETag, and follows the same command files', async () => {
    const cards = () =>
      Promise.all(
        instances.map((instance) => rawGet(`${instance.listeningUrl}/.well-known/agent-card.json`)),
      );
    const first = await cards();
    expect(new Set(first.map((card) => card.etag)).size).toBe(1);
    expect(new Set(first.map((card) => card.body)).size).toBe(1);
    expect(JSON.parse(first[0]!.body).supportedInterfaces[0].url).toBe(`${PUBLIC_URL}/a2a/jsonrpc`);

    writeFileSync(
      path.join(dataDir, 'commands', 'standup.md'),
      '---\ndescription: Summarise the day\n---\n\nSummarise my day: $ARGUMENTS\n',
    );
    const after = await waitFor(async () => {
      const now = await cards();
      return now.every((card) => card.body.includes('"standup"')) ? now : undefined;
    }, 'every card to list /standup');
    expect(new Set(after.map((card) => card.etag)).size).toBe(1);
    expect(after[0]!.etag).not.toBe(first[0]!.etag);
  });

  it('a command sent to B during a turn running on A is answered at once; the reply reaches A’s turn stream and a subscriber on C', async () => {
    const { events: stream } = await rpcStream(pick().listeningUrl, 'SendStreamingMessage', {
      message: userText(words(40)),
    });
    const task = resultOf(await stream.next()).task;
    const a = await runnerOf(task.history[0].messageId);
    const [b, c] = others(a);
    expect(stateOf(resultOf(await stream.next()))).toBe('TASK_STATE_WORKING');

    const { events: onC } = await rpcStream(c!.listeningUrl, 'SubscribeToTask', { id: task.id });
    expect(resultOf(await onC.next()).task.id).toBe(task.id);

    const reply = (
      await rpc(b!.listeningUrl, 'SendMessage', {
        message: userText('/status', { taskId: task.id }),
      })
    ).body.result.task;
    // Answered while the turn still runs on A, and B knows that it runs.
    expect(reply.status.state).toBe('TASK_STATE_WORKING');
    expect(reply.status.message.metadata).toEqual({ command: 'status' });
    expect(reply.status.message.parts[1].data).toMatchObject({ running: true, queued: 0 });

    const isReply = (event: any) => event.statusUpdate?.metadata?.command === 'status';
    const onStream = await readUntil(stream, endsTurn);
    const seenByC = await readUntil(onC, endsTurn);
    await onC.cancel();
    for (const events of [onStream, seenByC]) {
      expect(events.filter(isReply)).toHaveLength(1);
      expect(events.findIndex(isReply)).toBeLessThan(events.length - 1);
      expect(events.filter(isReply)[0].statusUpdate.status.message.messageId).toBe(
        reply.status.message.messageId,
      );
    }
    // C sees A's chunks as they come, and the same answer at the end.
    expect(seenByC.some((event) => event.artifactUpdate)).toBe(true);
    const answer = textOf(onStream.at(-1).statusUpdate.status.message);
    expect(answer).toContain(`You said: ${words(40)}`);
    expect(textOf(seenByC.at(-1).statusUpdate.status.message)).toBe(answer);
  });

  it('a message streamed to B while A runs the task’s turn waits, runs after it, and B’s stream gets its turn', async () => {
    const { events: first } = await rpcStream(pick().listeningUrl, 'SendStreamingMessage', {
      message: userText(words(30, 'first')),
    });
    const task = resultOf(await first.next()).task;
    const a = await runnerOf(task.history[0].messageId);
    const [b] = others(a);
    const second = userText('second question', { taskId: task.id });
    const { events: onB } = await rpcStream(b!.listeningUrl, 'SendStreamingMessage', {
      message: second,
    });
    expect(resultOf(await onB.next()).task.history[0].messageId).toBe(second.messageId);

    const firstTurn = await readUntil(first, endsTurn);
    const secondTurn = await readUntil(onB, endsTurn);
    expect(textOf(firstTurn.at(-1).statusUpdate.status.message)).toContain(
      `You said: ${words(30, 'first')}`,
    );
    expect(secondTurn[0].statusUpdate.status.state).toBe('TASK_STATE_WORKING');
    expect(secondTurn.some((event) => event.artifactUpdate)).toBe(true);
    expect(textOf(secondTurn.at(-1).statusUpdate.status.message)).toContain(
      'You said: second question',
    );

    const stored = await getTask(task.id);
    const answers = stored.history.filter((m: any) => m.role === 'ROLE_AGENT').map(textOf);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toContain('You said: first0');
    expect(answers[1]).toContain('You said: second question');
  });

  it('an event larger than a notification (8000 bytes) reaches the streams on other instances whole', async () => {
    const big = 'x'.repeat(9000);
    const { events: stream } = await rpcStream(pick().listeningUrl, 'SendStreamingMessage', {
      message: userText(`${words(40)} ${big}`),
    });
    const task = resultOf(await stream.next()).task;
    const a = await runnerOf(task.history[0].messageId);
    const { events: elsewhere } = await rpcStream(others(a)[0]!.listeningUrl, 'SubscribeToTask', {
      id: task.id,
    });
    resultOf(await elsewhere.next());
    const seen = await readUntil(elsewhere, endsTurn);
    await elsewhere.cancel();
    await stream.cancel();
    const chunks = seen
      .filter((event) => event.artifactUpdate)
      .map((event) => textOf(event.artifactUpdate.artifact));
    expect(chunks.some((chunk) => chunk.includes(big))).toBe(true);
    expect(textOf(seen.at(-1).statusUpdate.status.message)).toContain(big);
  });

  it('CancelTask on any instance aborts the turn wherever it runs', async () => {
    const entry = pick();
    const { events: stream } = await rpcStream(entry.listeningUrl, 'SendStreamingMessage', {
      message: userText(words(60)),
    });
    const task = resultOf(await stream.next()).task;
    const runner = await runnerOf(task.history[0].messageId);
    const queued = userText('never answered', { taskId: task.id });
    await rpc(others(runner)[0]!.listeningUrl, 'SendMessage', {
      message: queued,
      configuration: { returnImmediately: true },
    });
    const canceled = (await rpc(others(runner)[1]!.listeningUrl, 'CancelTask', { id: task.id }))
      .body.result;
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');

    const rest = (await stream.rest()).map(resultOf);
    expect(stateOf(rest.at(-1))).toBe('TASK_STATE_CANCELED');
    // Another round trip through the runner: the aborted turn writes nothing after the cancel.
    await rpc(runner.listeningUrl, 'SendMessage', {
      message: userText('/status', { taskId: task.id }),
    });
    const stored = await getTask(task.id);
    expect(stored.status.state).toBe('TASK_STATE_CANCELED');
    expect(stored.history.filter((m: any) => m.role === 'ROLE_AGENT' && !isCommand(m))).toEqual([]);
    expect(stored.history.map((m: any) => m.messageId)).toContain(queued.messageId);
  });

  it('200 messages over 20 tasks, sent round-robin all at once: each is answered exactly once, in order, one turn at a time per task', async () => {
    const taskIds: string[] = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const created = await rpc(pick().listeningUrl, 'SendMessage', {
          message: userText(`/title Load ${i}`),
        });
        return created.body.result.task.id as string;
      }),
    );
    const sent = new Map(taskIds.map((id) => [id, [] as string[]]));
    await Promise.all(
      Array.from({ length: 200 }, async (_, k) => {
        const taskId = taskIds[k % taskIds.length]!;
        const text = `message ${k}`;
        sent.get(taskId)!.push(text);
        const response = await rpc(pick().listeningUrl, 'SendMessage', {
          message: userText(text, { taskId }),
          configuration: { returnImmediately: true },
        });
        expect(response.body.error).toBeUndefined();
      }),
    );

    const finished = await waitFor(
      async () => {
        const tasks = await Promise.all(taskIds.map(getTask));
        const done = tasks.every(
          (task) =>
            task.status.state === 'TASK_STATE_INPUT_REQUIRED' &&
            task.history.filter((m: any) => m.role === 'ROLE_AGENT' && !isCommand(m)).length >= 10,
        );
        return done ? tasks : undefined;
      },
      'all 200 turns to end',
      1200,
    );
    for (const task of finished) {
      const asked = task.history
        .filter((m: any) => m.role === 'ROLE_USER' && !isCommand(m))
        .map(textOf);
      const answered = task.history
        .filter((m: any) => m.role === 'ROLE_AGENT' && !isCommand(m))
        .map((m: any) => /You said: (.*)$/.exec(textOf(m))?.[1]);
      expect([...asked].sort()).toEqual([...sent.get(task.id)!].sort());
      // One answer per message, in the order the messages were stored: turns ran one by one.
      expect(answered).toEqual(asked);
      expect(task.metadata['a2a-harness'].turns).toBe(10);
    }
  }, 120_000);

  // Last: it leaves two instances.
  it('kill -9 of the instance running a turn: another ends that turn with a note, then runs the messages queued behind it', async () => {
    const entry = pick();
    const { events: stream } = await rpcStream(entry.listeningUrl, 'SendStreamingMessage', {
      message: userText(words(80)),
    });
    const task = resultOf(await stream.next()).task;
    const runner = await runnerOf(task.history[0].messageId);
    const survivors = others(runner);
    const queued = survivors.map((survivor, i) => ({
      survivor,
      message: userText(`queued ${i}`, { taskId: task.id }),
    }));
    for (const { survivor, message } of queued) {
      await rpc(survivor.listeningUrl, 'SendMessage', {
        message,
        configuration: { returnImmediately: true },
      });
    }
    const { events: watching } = await rpcStream(survivors[0]!.listeningUrl, 'SubscribeToTask', {
      id: task.id,
    });
    resultOf(await watching.next());

    runner.child.kill('SIGKILL');
    expect(await runner.exited).toBeNull();

    const interrupted = await readUntil(
      watching,
      (event) => stateOf(event) === 'TASK_STATE_INPUT_REQUIRED',
    );
    expect(textOf(interrupted.at(-1).statusUpdate.status.message)).toMatch(/interrupted/);
    if (entry !== runner) {
      // The stream that asked for the turn, on a survivor, ends with the note too.
      const rest = await readUntil(
        stream,
        (event) => stateOf(event) === 'TASK_STATE_INPUT_REQUIRED',
      );
      expect(textOf(rest.at(-1).statusUpdate.status.message)).toMatch(/interrupted/);
    }

    const stored = await waitFor(
      async () => {
        const now = await getTask(task.id);
        const answers = now.history.filter((m: any) => /You said: queued/.test(textOf(m)));
        return now.status.state === 'TASK_STATE_INPUT_REQUIRED' && answers.length === 2
          ? now
          : undefined;
      },
      'the queued messages to be answered',
      800,
    );
    await watching.cancel();
    const texts = stored.history.map(textOf);
    expect(texts.filter((text: string) => /interrupted/.test(text))).toHaveLength(1);
    expect(texts.filter((text: string) => text.includes('You said: queued 0'))).toHaveLength(1);
    expect(texts.filter((text: string) => text.includes('You said: queued 1'))).toHaveLength(1);
    expect(texts.some((text: string) => text.includes(`You said: ${words(80)}`))).toBe(false);
    expect(
      survivors.some((survivor) =>
        survivor.logs.some((l) => l.msg === 'ended turns of an instance that stopped'),
      ),
    ).toBe(true);
  }, 60_000);
});
