/**
 * Many streams on one task do not hold up the server: subscribers past the
 * first few are woken in batches, between which the turn and other requests
 * run, and a subscriber woken late gets the answer chunks that piled up as one
 * event. Every subscriber still gets the whole answer and the final event.
 * The model is the fake OpenAI server, which keeps the answer streaming until
 * the other caller's command is answered: were that command held up behind the
 * fan-out, the turn would never end.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { headers, resultOf, rpc, rpcStream, userText } from 'a2a-testing/http';
import { spawnHarness, writeConfig, type HarnessProcess } from 'a2a-testing/process';

const SUBSCRIBERS = 300;
const textOf = (message: any): string => message?.parts?.[0]?.text ?? '';

let harness: HarnessProcess;
let model: FakeOpenAI;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-harness-fan-out-'));
  // Every word its own chunk.
  model = await startFakeOpenAI({ reply: (request) => `You said: ${request.lastUserText}` });
  const config = writeConfig(dir, {
    providers: [{ name: 'fake', baseUrl: model.baseUrl, models: ['m'] }],
    defaultModel: 'fake/m',
    // Every chunk its own event: chunks come faster than a batch of wakes runs.
    turns: { flushMs: 0 },
    limits: { streamsPerPrincipal: SUBSCRIBERS + 10 },
  });
  harness = await spawnHarness(['--data', path.join(dir, 'data'), '--config', config]);
});

afterAll(async () => {
  harness.child.kill('SIGTERM');
  await harness.exited;
  await model.close();
});

/** A SubscribeToTask over a raw socket: cheap enough to open hundreds from one test. */
function subscribe(taskId: string): { opened: Promise<void>; events: Promise<any[]> } {
  const { port } = new URL(harness.url);
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'SubscribeToTask',
    params: { id: taskId },
  });
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(
    `POST /a2a/jsonrpc HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      Object.entries(headers())
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  let text = '';
  let markOpen!: () => void;
  const opened = new Promise<void>((resolve) => (markOpen = resolve));
  const events = new Promise<any[]>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      markOpen();
      // Only the last event is looked at here: the client must keep up with the server.
      const lastStart = text.lastIndexOf('data: ');
      const last = text.slice(lastStart);
      if (!last.includes('\n\n')) return; // not whole yet
      if (last.includes('"statusUpdate"') && last.includes('TASK_STATE_INPUT_REQUIRED')) {
        if (text.indexOf('data: ') === lastStart) return; // the opening snapshot's state
        socket.destroy();
        resolve([...text.matchAll(/^data: (.*)$/gm)].map((m) => resultOf(JSON.parse(m[1]!))));
      }
    });
    socket.on('error', reject);
  });
  return { opened, events };
}

describe('fan-out to many streams', () => {
  it(`${SUBSCRIBERS} subscribers each get the whole answer, late ones in joined chunks, and another caller's /help is answered while the turn runs`, async () => {
    const created = await rpc(harness.url, 'SendMessage', { message: userText('/help') });
    const taskId = created.body.result.task.id;
    const other = (await rpc(harness.url, 'SendMessage', { message: userText('/help') })).body
      .result.task.id;
    const subscribers = Array.from({ length: SUBSCRIBERS }, () => subscribe(taskId));
    await Promise.all(subscribers.map((s) => s.opened));

    const said = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ');
    let helpAnswered!: () => void;
    model.streamUntil(new Promise<void>((resolve) => (helpAnswered = resolve)));
    const { events: own } = await rpcStream(harness.url, 'SendStreamingMessage', {
      message: userText(said, { taskId }),
    });
    const ownEvents: any[] = [];
    let help: Promise<unknown> | undefined;
    for (let event = await own.next(); event !== undefined; event = await own.next()) {
      ownEvents.push(resultOf(event));
      if (ownEvents.length === 10) {
        // Another caller's command, sent while the turn streams to every subscriber.
        help = rpc(harness.url, 'SendMessage', {
          message: userText('/help', { taskId: other }),
        }).then((answer) => {
          helpAnswered();
          return answer;
        });
      }
    }
    const final = ownEvents.at(-1).statusUpdate;
    expect(final.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(await help).toMatchObject({
      body: { result: { task: { status: { message: { metadata: { command: 'help' } } } } } },
    });

    const answer = textOf(final.status.message);
    expect(answer).toMatch(new RegExp(`^You said: ${said}( more)+$`));
    const seen = await Promise.all(subscribers.map((s) => s.events));
    const chunkCounts = seen.map((events) => events.filter((e) => e.artifactUpdate).length);
    for (const events of seen) {
      const chunks = events.filter((e) => e.artifactUpdate);
      const text = chunks.map((e) => e.artifactUpdate.artifact.parts[0].text).join('');
      expect(text).toBe(answer);
      expect(textOf(events.at(-1).statusUpdate.status.message)).toBe(answer);
    }
    // Streams woken later got several chunks in one event: not every stream got as many.
    expect(Math.min(...chunkCounts)).toBeLessThan(Math.max(...chunkCounts));
  }, 120_000);
});
