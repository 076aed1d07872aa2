/**
 * A2A's gRPC binding, driven with the SDK's own gRPC client: commands work
 * there as on JSON-RPC and HTTP+JSON (the reply tagged in the status update,
 * the state unchanged, the extension echoed in the call's metadata), turns
 * stream from a real HTTP model server, and the same guards apply: API keys
 * from the call's metadata, ownership, rate limits and message retries.
 */
import { mkdtempSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import * as grpc from '@grpc/grpc-js';
import {
  ListTasksRequest,
  SendMessageRequest,
  TaskState,
  type Message,
  type StreamResponse,
  type Task,
} from '@a2a-js/sdk';
import { ClientFactory, type Client, type RequestOptions } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import { COMMANDS_EXTENSION_URI } from 'a2a-commands';
import { checkAgent } from 'a2a-commands/check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';
import { spawnHarness } from 'a2a-testing/process';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const KEYS = `alice=${ALICE},bob=${BOB}`;
/** What `a2a-commands check` says in the turn it sends a command into. */
const CHECKER_TURN_TEXT = 'a2a-commands check is testing you';
/** A long answer, a word every 30 ms: a turn that is still running when the test looks. */
const LONG_ANSWER = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

let fake: FakeOpenAI;
let harness: TestHarness;
/** The main harness's keys, which a test revokes and gives back. */
const keys = new ApiKeys(parseApiKeyList(KEYS));

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test'], chunkDelayMs: 30 });
  harness = await startHarness({
    apiKeys: keys,
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
    config: { defaultModel: 'openai/gpt-test', grpc: { port: 0 } },
  });
});
afterAll(async () => {
  await harness?.stop();
  await fake?.close();
});

/** The SDK's client, over gRPC only. */
async function grpcClient(of: TestHarness): Promise<Client> {
  return new ClientFactory({
    transports: [new GrpcTransportFactory()],
    preferredTransports: ['GRPC'],
  }).createFromUrl(of.url);
}

const as = (key: string, extra: Record<string, string> = {}): RequestOptions => ({
  serviceParameters: { authorization: `Bearer ${key}`, ...extra },
});

function send(
  text: string,
  taskId?: string,
  messageId: string = crypto.randomUUID(),
): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId, role: 'ROLE_USER', parts: [{ text }], ...(taskId && { taskId }) },
  });
}

function asTask(result: Message | Task): Task {
  if (!('status' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
}

const textOf = (message: Message | undefined): string =>
  (message?.parts ?? [])
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');

/** The status updates and artifact text of a stream, read to its end. */
async function drain(stream: AsyncGenerator<StreamResponse>) {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const statusUpdates = (events: StreamResponse[]) =>
  events.flatMap((e) => (e.payload?.$case === 'statusUpdate' ? [e.payload.value] : []));

const answerText = (events: StreamResponse[]) =>
  events
    .flatMap((e) => (e.payload?.$case === 'artifactUpdate' ? e.payload.value.artifact!.parts : []))
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');

/** Opens a turn's stream and waits for its first words: the task and the stream still going. */
async function runningTurn(client: Client, key: string) {
  fake.setReply(LONG_ANSWER);
  const stream = client.sendMessageStream(send('Write a long answer'), as(key));
  const seen: StreamResponse[] = [];
  let taskId = '';
  // Read step by step: leaving a `for await` early would end the stream.
  for (let step = await stream.next(); !step.done; step = await stream.next()) {
    seen.push(step.value);
    if (step.value.payload?.$case === 'task') taskId = step.value.payload.value.id;
    if (step.value.payload?.$case === 'artifactUpdate') break;
  }
  return { taskId, seen, stream };
}

/** Everything the turn's stream gave, read on to its end. */
async function restOf(turn: Awaited<ReturnType<typeof runningTurn>>) {
  return [...turn.seen, ...(await drain(turn.stream))];
}

describe('the card', () => {
  it('lists the gRPC interface only when gRPC is on', async () => {
    const card = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json();
    const listed = card.supportedInterfaces.filter(
      (i: { protocolBinding: string }) => i.protocolBinding === 'GRPC',
    );
    expect(listed).toEqual([
      {
        url: harness.grpcUrl,
        protocolBinding: 'GRPC',
        tenant: '',
        protocolVersion: '1.0',
      },
    ]);
    expect(harness.grpcUrl).toMatch(/^127\.0\.0\.1:\d+$/);

    const plain = await startHarness();
    try {
      const plainCard = await (await fetch(`${plain.url}/.well-known/agent-card.json`)).json();
      const bindings = plainCard.supportedInterfaces.map(
        (i: { protocolBinding: string }) => i.protocolBinding,
      );
      expect(bindings).not.toContain('GRPC');
      expect(plain.grpcUrl).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});

describe('commands over gRPC', () => {
  it('/help: the reply is tagged, the state unchanged, on SendMessage and SendStreamingMessage', async () => {
    const client = await grpcClient(harness);
    const task = asTask(await client.sendMessage(send('/help'), as(ALICE)));
    expect(task.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(task.status!.message!.metadata).toEqual({ command: 'help' });
    expect(textOf(task.status!.message)).toContain('/help');
    // SEMANTICS §3: the command leaves nothing in the task's metadata.
    expect(task.metadata?.['command']).toBeUndefined();

    const events = await drain(client.sendMessageStream(send('/help', task.id), as(ALICE)));
    expect(events[0]!.payload?.$case).toBe('task');
    const [reply, ...more] = statusUpdates(events);
    expect(more).toEqual([]);
    expect(reply!.metadata).toEqual({ command: 'help' });
    expect(reply!.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(reply!.status!.message!.metadata).toEqual({ command: 'help' });

    const read = await client.getTask({ id: task.id, tenant: '', historyLength: 10 }, as(ALICE));
    expect(read.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(read.metadata?.['command']).toBeUndefined();
  });

  it('/spawn: the reply carries task_ref, a sub-task the caller reads over gRPC', async () => {
    fake.setReply('a haiku');
    const client = await grpcClient(harness);
    const spawned = asTask(await client.sendMessage(send('/spawn write a haiku'), as(ALICE)));
    const ref = spawned.status!.message!.metadata?.['task_ref'];
    expect(typeof ref).toBe('string');
    expect(spawned.status!.message!.metadata).toEqual({ command: 'spawn', task_ref: ref });
    const sub = await client.getTask({ id: ref as string, tenant: '' }, as(ALICE));
    expect(sub.id).toBe(ref);
  });

  it('the extension is echoed in the response metadata when the call names it', async () => {
    // The SDK's client does not show response metadata: its service definition, with grpc-js.
    const Client = grpc.makeGenericClientConstructor(A2AService, 'A2AService');
    const raw = new Client(harness.grpcUrl!, grpc.credentials.createInsecure());
    try {
      const echoed = async (named: boolean) => {
        const metadata = new grpc.Metadata();
        metadata.set('authorization', `Bearer ${ALICE}`);
        metadata.set('a2a-version', '1.0');
        if (named) metadata.set('a2a-extensions', COMMANDS_EXTENSION_URI);
        return new Promise<string[]>((resolve, reject) => {
          const call = raw.makeUnaryRequest(
            A2AService.sendMessage.path,
            A2AService.sendMessage.requestSerialize,
            A2AService.sendMessage.responseDeserialize,
            send('/help'),
            metadata,
            (error) => error && reject(error),
          );
          call.on('metadata', (headers) => resolve(headers.get('a2a-extensions').map(String)));
        });
      };
      expect(await echoed(true)).toEqual([COMMANDS_EXTENSION_URI]);
      expect(await echoed(false)).toEqual([]);
      // A call that names no version is read as 0.3, which this service does not serve.
      const unversioned = new grpc.Metadata();
      unversioned.set('authorization', `Bearer ${ALICE}`);
      const refused = await new Promise<grpc.ServiceError | null>((resolve) =>
        raw.makeUnaryRequest(
          A2AService.sendMessage.path,
          A2AService.sendMessage.requestSerialize,
          A2AService.sendMessage.responseDeserialize,
          send('/help'),
          unversioned,
          (error) => resolve(error),
        ),
      );
      expect(refused?.code).toBe(grpc.status.FAILED_PRECONDITION);
    } finally {
      raw.close();
    }
  });
});

describe('turns over gRPC', () => {
  it("an ordinary message streams the model's answer, and the task waits for input", async () => {
    fake.setReply('The answer, in a few words.');
    const client = await grpcClient(harness);
    const events = await drain(client.sendMessageStream(send('Hello model'), as(ALICE)));
    expect(answerText(events)).toBe('The answer, in a few words.');
    const last = statusUpdates(events).at(-1)!;
    expect(last.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.some((r) => JSON.stringify(r.body).includes('Hello model'))).toBe(true);
  });

  it('a command during a turn is answered at once, in WORKING, and the turn goes on', async () => {
    const client = await grpcClient(harness);
    const turn = await runningTurn(client, ALICE);
    const reply = asTask(await client.sendMessage(send('/help', turn.taskId), as(ALICE)));
    expect(reply.status!.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(reply.status!.message!.metadata).toEqual({ command: 'help' });

    const events = await restOf(turn);
    // The turn's own stream got the reply too (SEMANTICS §3), and went on to the end.
    expect(statusUpdates(events).some((u) => u.metadata?.['command'] === 'help')).toBe(true);
    expect(answerText(events)).toBe(LONG_ANSWER);
    expect(statusUpdates(events).at(-1)!.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });

  it('/stop ends the running turn; the task goes on, waiting for input', async () => {
    const client = await grpcClient(harness);
    const turn = await runningTurn(client, ALICE);
    const stopped = asTask(await client.sendMessage(send('/stop', turn.taskId), as(ALICE)));
    expect(stopped.status!.message!.metadata).toEqual({ command: 'stop' });
    expect(stopped.status!.state).toBe(TaskState.TASK_STATE_WORKING);

    const events = await restOf(turn);
    expect(answerText(events).length).toBeLessThan(LONG_ANSWER.length);
    expect(statusUpdates(events).at(-1)!.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const read = await client.getTask({ id: turn.taskId, tenant: '' }, as(ALICE));
    expect(read.status!.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });

  it('GetTask and SubscribeToTask join a running answer', async () => {
    const client = await grpcClient(harness);
    const turn = await runningTurn(client, ALICE);
    const read = await client.getTask({ id: turn.taskId, tenant: '' }, as(ALICE));
    expect(read.status!.state).toBe(TaskState.TASK_STATE_WORKING);

    // A subscription carries every turn of the task: read until this one ends, then hang up.
    const joined: StreamResponse[] = [];
    for await (const event of client.resubscribeTask({ id: turn.taskId, tenant: '' }, as(ALICE))) {
      joined.push(event);
      const update = event.payload?.$case === 'statusUpdate' ? event.payload.value : undefined;
      if (update?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) break;
    }
    expect(joined[0]!.payload?.$case).toBe('task');
    // It joined mid-answer: the snapshot holds the words so far, the updates the rest.
    const snapshot = joined[0]!.payload?.$case === 'task' ? joined[0]!.payload.value : undefined;
    expect(snapshot!.status!.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(answerText(joined).length).toBeGreaterThan(0);
    expect(LONG_ANSWER.endsWith(answerText(joined).slice(-20))).toBe(true);
    // The first stream ends with the whole answer, and so does the task.
    const first = await restOf(turn);
    expect(answerText(first)).toBe(LONG_ANSWER);
    const done = await client.getTask(
      { id: turn.taskId, tenant: '', historyLength: 10 },
      as(ALICE),
    );
    expect(textOf(done.status!.message)).toBe(LONG_ANSWER);
  });

  it('a message sent again under its messageId gets the first reply; nothing runs twice', async () => {
    const client = await grpcClient(harness);
    const task = asTask(await client.sendMessage(send('/help'), as(ALICE)));
    const first = asTask(
      await client.sendMessage(send('/title Once', task.id, 'm-once'), as(ALICE)),
    );
    const again = asTask(
      await client.sendMessage(send('/title Once', task.id, 'm-once'), as(ALICE)),
    );
    expect(again.status!.message!.messageId).toBe(first.status!.message!.messageId);
    const read = await client.getTask({ id: task.id, tenant: '', historyLength: 100 }, as(ALICE));
    expect(read.history.filter((m) => m.messageId === 'm-once')).toHaveLength(1);
  });
});

describe('the guards over gRPC', () => {
  const refusal = async (call: Promise<unknown>) => {
    const error = (await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    )) as { status?: number; message?: string } | undefined;
    expect(error).toBeDefined();
    return error!;
  };

  it('a missing or wrong key is refused UNAUTHENTICATED, on unary and streaming calls', async () => {
    const client = await grpcClient(harness);
    for (const options of [{}, as('not-a-key'), { serviceParameters: { authorization: ALICE } }]) {
      const unary = await refusal(client.sendMessage(send('/help'), options));
      expect(unary.status).toBe(grpc.status.UNAUTHENTICATED);
      expect(unary.message).toContain('Unauthenticated');
      const streamed = await refusal(drain(client.sendMessageStream(send('/help'), options)));
      expect(streamed.status).toBe(grpc.status.UNAUTHENTICATED);
    }
  });

  it("another principal's task does not exist for bob: read, send, subscribe and cancel", async () => {
    const client = await grpcClient(harness);
    const task = asTask(await client.sendMessage(send('/title Private'), as(ALICE)));
    const notFound = async (call: Promise<unknown>) =>
      expect((await refusal(call)).status).toBe(grpc.status.NOT_FOUND);
    await notFound(client.getTask({ id: task.id, tenant: '' }, as(BOB)));
    await notFound(client.sendMessage(send('/help', task.id), as(BOB)));
    await notFound(client.sendMessage(send('Hello', task.id), as(BOB)));
    await notFound(drain(client.resubscribeTask({ id: task.id, tenant: '' }, as(BOB))));
    await notFound(client.cancelTask({ id: task.id, tenant: '', metadata: undefined }, as(BOB)));
    const listed = await client.listTasks(ListTasksRequest.fromJSON({}), as(BOB));
    expect(listed.tasks.map((t) => t.id)).not.toContain(task.id);
    // Alice's task is untouched.
    const read = await client.getTask({ id: task.id, tenant: '', historyLength: 100 }, as(ALICE));
    expect(read.history).toHaveLength(2);
  });

  it('a caller over its rate limit is refused RESOURCE_EXHAUSTED with the wait; others are not', async () => {
    const limited = await startHarness({
      apiKeys: new ApiKeys(parseApiKeyList(KEYS)),
      config: { grpc: { port: 0 }, limits: { commandsPerMinute: 1, commandBurst: 1 } },
    });
    try {
      const client = await grpcClient(limited);
      await client.sendMessage(send('/help'), as(ALICE));
      const over = await refusal(client.sendMessage(send('/help'), as(ALICE)));
      expect(over.status).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(over.message).toMatch(/rate limit; retry after \d+ s/);
      const streamed = await refusal(drain(client.sendMessageStream(send('/help'), as(ALICE))));
      expect(streamed.status).toBe(grpc.status.RESOURCE_EXHAUSTED);
      // Bob has his own bucket.
      const bob = asTask(await client.sendMessage(send('/help'), as(BOB)));
      expect(bob.status!.message!.metadata).toEqual({ command: 'help' });
    } finally {
      await limited.stop();
    }
  });

  it('without keys the caller is its address, whichever binding it calls on', async () => {
    const open = await startHarness({
      config: { grpc: { port: 0 }, limits: { commandsPerMinute: 1, commandBurst: 1 } },
    });
    try {
      const client = await grpcClient(open);
      await client.sendMessage(send('/help'));
      // The same address over JSON-RPC: the same bucket, already spent.
      const overHttp = await rpc(open.url, 'SendMessage', { message: userText('/help') });
      expect(overHttp.status).toBe(429);
      const overGrpc = await refusal(client.sendMessage(send('/help')));
      expect(overGrpc.status).toBe(grpc.status.RESOURCE_EXHAUSTED);
    } finally {
      await open.stop();
    }
  });

  it('a stream opened with a key that is then revoked ends, and the key is refused from then on', async () => {
    try {
      const client = await grpcClient(harness);
      const task = asTask(await client.sendMessage(send('/help'), as(BOB)));
      const open = client.resubscribeTask({ id: task.id, tenant: '' }, as(BOB));
      expect((await open.next()).value?.payload?.$case).toBe('task');
      keys.replaceWith(new ApiKeys(parseApiKeyList(`alice=${ALICE}`)));
      await expect(drain(open)).rejects.toThrow(/revoked/);
      const refused = await refusal(client.getTask({ id: task.id, tenant: '' }, as(BOB)));
      expect(refused.status).toBe(grpc.status.UNAUTHENTICATED);
    } finally {
      keys.replaceWith(new ApiKeys(parseApiKeyList(KEYS)));
    }
  });

  it('a stream whose client hangs up is closed: it no longer counts against limits.streamsPerPrincipal', async () => {
    const limited = await startHarness({
      apiKeys: new ApiKeys(parseApiKeyList(KEYS)),
      config: { grpc: { port: 0 }, limits: { streamsPerPrincipal: 1 } },
    });
    try {
      const client = await grpcClient(limited);
      const task = asTask(await client.sendMessage(send('/help'), as(ALICE)));
      // A subscription to an idle task never ends by itself: only the hang-up closes it.
      const subscribe = async () => {
        const stream = client.resubscribeTask({ id: task.id, tenant: '' }, as(ALICE));
        const first = await stream.next();
        return { first, stream };
      };
      const open = await subscribe();
      expect(open.first.value?.payload?.$case).toBe('task');
      const second = await refusal(subscribe());
      expect(second.message).toContain('Too many open streams');
      await open.stream.return(undefined);
      // The server hears of the hang-up a moment later.
      let again: Awaited<ReturnType<typeof subscribe>> | undefined;
      for (let tries = 0; !again && tries < 100; tries++) {
        again = await subscribe().catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          return undefined;
        });
      }
      expect(again?.first.value?.payload?.$case).toBe('task');
      await again?.stream.return(undefined);
    } finally {
      await limited.stop();
    }
  });

  it('a message larger than limits.bodyBytes is refused RESOURCE_EXHAUSTED, the server goes on, and stopping it ends open streams', async () => {
    const limited = await startHarness({
      apiKeys: new ApiKeys(parseApiKeyList(KEYS)),
      config: { grpc: { port: 0 }, limits: { bodyBytes: 4096 } },
    });
    try {
      const client = await grpcClient(limited);
      const big = await refusal(client.sendMessage(send('x'.repeat(5000)), as(ALICE)));
      expect(big.status).toBe(grpc.status.RESOURCE_EXHAUSTED);
      const help = asTask(await client.sendMessage(send('/help'), as(ALICE)));
      expect(help.status!.message!.metadata).toEqual({ command: 'help' });

      // A subscription to an idle task never ends by itself: stopping the server ends it.
      const open = client.resubscribeTask({ id: help.id, tenant: '' }, as(ALICE));
      expect((await open.next()).value?.payload?.$case).toBe('task');
      await limited.stop();
      await expect(drain(open)).rejects.toThrow();
    } finally {
      await limited.stop();
    }
  });
});

describe('a2a-commands check', () => {
  it('covers the gRPC binding the card lists: every check passes there too', async () => {
    // The turn the checker sends a command into answers long enough to be still running
    // when the command lands; its other turns only need an answer, and get a short one.
    const longAnswer = LONG_ANSWER.split(' ').slice(0, 25).join(' ');
    fake.setReply(({ lastUserText }) =>
      lastUserText.includes(CHECKER_TURN_TEXT) ? longAnswer : 'a short answer',
    );
    // The gRPC port is another origin than the card's: the key goes there only when allowed.
    const report = await checkAgent(harness.url, { apiKey: ALICE, apiKeyAnyOrigin: true });
    expect(report.bindings).toEqual(['JSONRPC', 'HTTP+JSON', 'GRPC']);
    const overGrpc = report.results.filter((r) => r.binding === 'GRPC');
    expect(overGrpc.map((r) => r.id)).toEqual(
      expect.arrayContaining(['command-new-task', 'extension-echo', 'streaming']),
    );
    // No command here is for some callers only, so the card offers no extended card to check.
    const notPassed = report.results.filter((r) => r.status !== 'pass');
    expect(notPassed.map((r) => [r.id, r.status, r.detail])).toEqual(
      report.bindings.map(() => [
        'extended-card',
        'skip',
        'the card does not offer an extended card',
      ]),
    );
    const help = overGrpc.find((r) => r.id === 'command-new-task')!;
    expect(help.detail).toContain('/help');
  });

  it('without leave to send the key to the gRPC port, says so, and the gRPC checks fail unauthenticated', async () => {
    const report = await checkAgent(harness.url, { apiKey: ALICE, noModel: true });
    expect(report.notes).toEqual([
      `--api-key was not sent to grpc://${harness.grpcUrl}, which is not the origin named on the command line (--api-key-any-origin sends it there)`,
    ]);
    const failed = report.results.filter((r) => r.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.binding === 'GRPC')).toBe(true);
    expect(failed[0]!.detail).toContain('UNAUTHENTICATED');
  });
});

describe('the CLI', () => {
  it('--grpc-port 0 serves gRPC on a picked port, says where, and logs one line a call', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-grpc-cli-'));
    const server = await spawnHarness(['--data', dir, '--grpc-port', '0']);
    try {
      const card = await (await fetch(`${server.url}/.well-known/agent-card.json`)).json();
      const grpcUrl = card.supportedInterfaces.find(
        (i: { protocolBinding: string }) => i.protocolBinding === 'GRPC',
      )?.url;
      expect(grpcUrl).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(server.logs.some((line) => line.msg === `gRPC binding on ${grpcUrl}`)).toBe(true);

      const client = await new ClientFactory({
        transports: [new GrpcTransportFactory()],
        preferredTransports: ['GRPC'],
      }).createFromUrl(server.url);
      const task = asTask(await client.sendMessage(send('/help')));
      expect(task.status!.message!.metadata).toEqual({ command: 'help' });
      const logged = async () => {
        for (let tries = 0; tries < 100; tries++) {
          const line = server.logs.find((entry) => entry.msg === 'grpc call completed');
          if (line) return line;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return undefined;
      };
      expect(await logged()).toMatchObject({
        level: 30,
        requestId: expect.any(String),
        grpc: { method: '/lf.a2a.v1.A2AService/SendMessage', code: grpc.status.OK },
      });
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});
