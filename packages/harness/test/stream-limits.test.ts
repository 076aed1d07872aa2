/**
 * Open streams are bounded: a principal may hold `limits.streamsPerPrincipal`
 * SSE streams at once, and a stream whose client does not read is dropped once
 * `limits.streamBufferBytes` wait unsent, its memory released.
 */
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headers, rpc, rpcStream, resultOf, userText, waitFor } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
const STREAMS_PER_PRINCIPAL = 3;
const STREAM_BUFFER_BYTES = 64 * 1024;

let harness: HarnessProcess;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-streams-'));
  const config = writeConfig(dir, {
    offline: { latencyMs: 0 },
    limits: {
      streamsPerPrincipal: STREAMS_PER_PRINCIPAL,
      streamBufferBytes: STREAM_BUFFER_BYTES,
    },
  });
  harness = await spawnHarness(
    ['--data', path.join(dir, 'data'), '--config', config, '--metrics-public'],
    { HARNESS_API_KEYS: `alice=${ALICE},bob=${BOB}` },
  );
});

afterAll(async () => {
  harness.child.kill('SIGTERM');
  await harness.exited;
});

async function newTask(key: string): Promise<string> {
  const { body } = await rpc(harness.url, 'SendMessage', { message: userText('/help') }, as(key));
  return body.result.task.id;
}

async function openStreams(): Promise<number> {
  const text = await (await fetch(`${harness.url}/metrics`)).text();
  return Number(/^a2a_harness_open_streams (\d+)/m.exec(text)?.[1]);
}

/** A SubscribeToTask whose client never reads a byte of the answer. */
function stalledSubscriber(taskId: string): Socket {
  const { port } = new URL(harness.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SubscribeToTask',
    params: { id: taskId },
  });
  const socket = connect(Number(port), '127.0.0.1');
  const head = { ...headers(), authorization: `Bearer ${ALICE}` };
  socket.write(
    `POST /a2a/jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      Object.entries(head)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

describe('open streams', () => {
  it('the per-principal limit refuses the next stream with a clear error; other principals are not held to it', async () => {
    const task = await newTask(ALICE);
    const open = [];
    for (let i = 0; i < STREAMS_PER_PRINCIPAL; i++) {
      const stream = await rpcStream(harness.url, 'SubscribeToTask', { id: task }, as(ALICE));
      expect(resultOf(await stream.events.next()).task.id).toBe(task);
      open.push(stream);
    }
    const refused = await rpc(harness.url, 'SubscribeToTask', { id: task }, as(ALICE));
    expect(refused.body.error?.message).toBe(
      'Too many open streams: this caller already has 3 open, as many as one caller may hold; close one first.',
    );
    const refusedSend = await rpc(
      harness.url,
      'SendStreamingMessage',
      { message: userText('hello') },
      as(ALICE),
    );
    expect(refusedSend.body.error?.message).toBe(
      'Too many open streams: this caller already has 3 open, as many as one caller may hold; close one first.',
    );

    const bobTask = await newTask(BOB);
    const bob = await rpcStream(harness.url, 'SubscribeToTask', { id: bobTask }, as(BOB));
    expect(resultOf(await bob.events.next()).task.id).toBe(bobTask);
    await bob.events.cancel();

    // A stream closed makes room for the next.
    await open.pop()!.events.cancel();
    const again = await waitFor(async () => {
      const stream = await rpcStream(harness.url, 'SubscribeToTask', { id: task }, as(ALICE));
      const first = await stream.events.next();
      if (first?.result) return stream;
      return undefined;
    }, 'room for another stream');
    open.push(again);
    for (const stream of open) await stream.events.cancel();
    await waitFor(async () => ((await openStreams()) === 0 ? true : undefined), 'streams closed');
  });

  it('a subscriber that never reads is dropped once its unsent bytes pass limits.streamBufferBytes, and its stream is released', async () => {
    const task = await newTask(ALICE);
    const stalled = stalledSubscriber(task);
    const closed = new Promise<void>((resolve) => stalled.once('close', () => resolve()));
    await waitFor(async () => ((await openStreams()) === 1 ? true : undefined), 'the stream open');
    const dropLine = () => harness.logs.find((l) => String(l.msg).startsWith('dropped a stream'));
    let sent = 0;
    // Each command's reply goes to the stalled subscriber as well; it takes none of them.
    while (!dropLine()) {
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const { body } = await rpc(
            harness.url,
            'SendMessage',
            { message: userText('/help', { taskId: task }) },
            as(ALICE),
          );
          expect(body.result.task.status.message.metadata).toEqual({ command: 'help' });
        }),
      );
      sent += 20;
      expect(sent).toBeLessThan(20_000);
    }
    // The server has closed its end: the client, reading at last, comes to the end of it.
    stalled.resume();
    await closed;
    await waitFor(async () => ((await openStreams()) === 0 ? true : undefined), 'released');
    const dropped = dropLine()!;
    expect(dropped.limit).toBe(STREAM_BUFFER_BYTES);
    expect(Number(dropped.buffered)).toBeGreaterThan(STREAM_BUFFER_BYTES);
  }, 120_000);
});
