/**
 * A2A 0.3 clients: the 0.3 line of @a2a-js/sdk (installed as `a2a-sdk-v03`),
 * its own client and transports, against the running harness over HTTP, on
 * JSON-RPC and on HTTP+JSON. Nothing here writes a 0.3 request by hand but the
 * plain curl request at the end, the way a 0.3 user would first try it.
 */
import { randomUUID } from 'node:crypto';
import type { Message, Task, TaskStatusUpdateEvent } from 'a2a-sdk-v03';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransport,
  JsonRpcTransportFactory,
  RestTransport,
  RestTransportFactory,
  ServiceParameters,
  withA2AExtensions,
  type Client,
} from 'a2a-sdk-v03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { UNAUTHENTICATED_MESSAGE } from '../src/serve/auth.js';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { EXT, rawGet, rpc, waitFor } from 'a2a-testing/http';

type Binding = 'JSONRPC' | 'HTTP+JSON';

/** A fetch that adds headers to every call and keeps the last response's headers. */
function recordingFetch(extra: Record<string, string> = {}) {
  const seen: { headers?: Headers } = {};
  const fetchImpl: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    const response = await fetch(input, { ...init, headers });
    seen.headers = response.headers;
    return response;
  };
  return { fetchImpl, seen };
}

/** The 0.3 SDK's own factory, preferring `binding`, discovering from the card. */
async function connect(
  url: string,
  binding: Binding,
  extra: Record<string, string> = {},
): Promise<{ client: Client; seen: { headers?: Headers } }> {
  const { fetchImpl, seen } = recordingFetch(extra);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl }),
        new RestTransportFactory({ fetchImpl }),
      ],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return { client: await factory.createFromUrl(url), seen };
}

const userMessage = (text: string, ids: { taskId?: string; contextId?: string } = {}): Message => ({
  kind: 'message',
  messageId: randomUUID(),
  role: 'user',
  parts: [{ kind: 'text', text }],
  ...ids,
});

/** Names the commands extension in the request, as a 0.3 client does. */
const withCommands = { serviceParameters: ServiceParameters.create(withA2AExtensions(EXT)) };

const textOf = (message: Message | undefined): string =>
  message?.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('') ?? '';

function asTask(result: Message | Task): Task {
  expect(result.kind).toBe('task');
  return result as Task;
}

/** Echoed back, with the offline model's preamble: about 125 words, 1.25 s at 10 ms a word. */
const LONG_PROMPT = `a long answer please: ${Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ')}`;

let harness: TestHarness;
beforeAll(async () => {
  // 10 ms a word: the long answer below runs long enough for a command to arrive while
  // it is working; the other answers, a few dozen words, end soon.
  harness = await startHarness({ config: { offline: { latencyMs: 10 } } });
});
afterAll(() => harness.stop());

describe.each<Binding>(['JSONRPC', 'HTTP+JSON'])('a 0.3 client on %s', (binding) => {
  it('discovers the agent from /.well-known/agent-card.json, commands included', async () => {
    const { client } = await connect(harness.url, binding);
    expect(client.transport).toBeInstanceOf(
      binding === 'JSONRPC' ? JsonRpcTransport : RestTransport,
    );
    const card = await client.getAgentCard();
    expect(card.protocolVersion).toBe('0.3');
    expect(card.url).toBe(`${harness.url}/a2a/jsonrpc`);
    expect(card.preferredTransport).toBe('JSONRPC');
    expect(card.additionalInterfaces).toContainEqual({
      url: `${harness.url}/a2a/rest`,
      transport: 'HTTP+JSON',
    });
    const extension = card.capabilities.extensions?.find((e) => e.uri === EXT);
    expect(extension?.required).toBe(false);
    const names = (extension?.params?.commands as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['help', 'model', 'spawn']));
  });

  it('/help on a new task: a 0.3 task whose reply is tagged, and the extension echoed in X-A2A-Extensions', async () => {
    const { client, seen } = await connect(harness.url, binding);
    const task = asTask(await client.sendMessage({ message: userMessage('/help') }, withCommands));
    expect(seen.headers?.get('X-A2A-Extensions')).toBe(EXT);
    expect(task.status.state).toBe('input-required');
    const reply = task.status.message!;
    expect(reply.kind).toBe('message');
    expect(reply.role).toBe('agent');
    expect(reply.metadata).toEqual({ command: 'help' });
    expect(textOf(reply)).toContain('/spawn');
    // The same task, read back through the 0.3 client.
    const read = await client.getTask({ id: task.id });
    expect(read.kind).toBe('task');
    expect(read.history?.map((m) => m.role)).toEqual(['user', 'agent']);
    expect(textOf(read.history?.[0])).toBe('/help');
  });

  it('a streamed ordinary message: 0.3 events, the answer in artifact chunks, then input-required', async () => {
    const { client, seen } = await connect(harness.url, binding);
    const events = [];
    for await (const event of client.sendMessageStream(
      { message: userMessage('stream me please') },
      withCommands,
    )) {
      events.push(event);
    }
    // SEMANTICS §6: streaming responses echo the extension too, in 0.3's header.
    expect(seen.headers?.get('X-A2A-Extensions')).toBe(EXT);
    expect(events[0]!.kind).toBe('task');
    const chunks = events.filter((e) => e.kind === 'artifact-update');
    expect(chunks.length).toBeGreaterThan(1);
    const answer = chunks
      .flatMap((e) => e.artifact.parts)
      .map((p) => (p.kind === 'text' ? p.text : ''));
    expect(answer.join('')).toContain('You said: stream me please');
    const last = events.at(-1) as TaskStatusUpdateEvent;
    expect(last.kind).toBe('status-update');
    expect(last.status.state).toBe('input-required');
    // 0.3: the event that ends the stream for this interaction says so.
    expect(last.final).toBe(true);
    expect(events.slice(0, -1).some((e) => e.kind === 'status-update' && e.final)).toBe(false);
  });

  it('a command on a working task is answered at once, and the turn stream carries its reply', async () => {
    const { client } = await connect(harness.url, binding);
    const stream = client.sendMessageStream({ message: userMessage(LONG_PROMPT) });
    const first = await stream.next();
    const task = first.value as Task;
    expect(task.kind).toBe('task');
    const answer = asTask(
      await client.sendMessage(
        { message: userMessage('/status', { taskId: task.id }) },
        withCommands,
      ),
    );
    expect(answer.status.state).toBe('working');
    expect(answer.status.message?.metadata).toEqual({ command: 'status' });
    const rest = [];
    for await (const event of stream) rest.push(event);
    const updates = rest.filter((e): e is TaskStatusUpdateEvent => e.kind === 'status-update');
    expect(updates.some((e) => e.metadata?.command === 'status')).toBe(true);
    expect(updates.at(-1)!.status.state).toBe('input-required');
  });

  it('/model <id> sets the task model; /spawn links a sub-task the client reads with GetTask', async () => {
    const { client } = await connect(harness.url, binding);
    const parent = asTask(
      await client.sendMessage({ message: userMessage('/model') }, withCommands),
    );
    const current = /\b(offline\/\S+)/.exec(textOf(parent.status.message))?.[1];
    expect(current).toBeDefined();
    const set = asTask(
      await client.sendMessage(
        { message: userMessage(`/model ${current}`, { taskId: parent.id }) },
        withCommands,
      ),
    );
    expect(set.status.message?.metadata).toEqual({ command: 'model' });
    expect(textOf(set.status.message)).toContain(current!);

    const spawned = asTask(
      await client.sendMessage(
        { message: userMessage('/spawn write a haiku', { taskId: parent.id }) },
        withCommands,
      ),
    );
    const ref = spawned.status.message?.metadata?.task_ref as string;
    expect(spawned.status.message?.metadata).toEqual({ command: 'spawn', task_ref: ref });
    const sub = await waitFor(async () => {
      const read = await client.getTask({ id: ref });
      return read.status.state === 'input-required' ? read : undefined;
    }, 'the sub-task to answer');
    expect(sub.kind).toBe('task');
    expect(sub.contextId).toBe(parent.contextId);
    expect(textOf(sub.status.message)).toContain('You said: write a haiku');
  });
});

describe('0.3 and 1.0 callers share one agent', () => {
  it('a task a 0.3 client made is the same task to a 1.0 client', async () => {
    const { client } = await connect(harness.url, 'JSONRPC');
    const sent = userMessage('/title Shared');
    const task = asTask(await client.sendMessage({ message: sent }));
    const { body } = await rpc(harness.url, 'GetTask', { id: task.id });
    expect(body.result.id).toBe(task.id);
    // The 0.3 messageId reaches the handler as is: what retries by messageId key on (SEMANTICS §8).
    expect(body.result.history[0].messageId).toBe(sent.messageId);
    expect(body.result.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(body.result.history[0].parts[0].text).toBe('/title Shared');
  });

  it('retries hold for a 0.3 caller (SEMANTICS §8): a copy gets the stored reply, a different message under its id is refused', async () => {
    const { client } = await connect(harness.url, 'JSONRPC');
    const task = asTask(await client.sendMessage({ message: userMessage('/title Retried') }));
    const spawn = userMessage('/spawn once only', { taskId: task.id, contextId: task.contextId });
    const first = asTask(await client.sendMessage({ message: spawn }));
    const again = asTask(await client.sendMessage({ message: spawn }));
    expect(again.status.message?.messageId).toBe(first.status.message?.messageId);
    expect(again.status.message?.metadata).toEqual(first.status.message?.metadata);
    const clash = { ...spawn, parts: [{ kind: 'text' as const, text: 'something else' }] };
    await expect(client.sendMessage({ message: clash })).rejects.toThrow(spawn.messageId);
    const { body } = await rpc(harness.url, 'GetTask', { id: task.id });
    expect(body.result.history.filter((m: any) => m.metadata?.command === 'spawn')).toHaveLength(2);
  });

  it('the message limits hold for a 0.3 caller: too many parts is refused before anything is stored', async () => {
    const { client } = await connect(harness.url, 'JSONRPC');
    const tooMany = userMessage('x');
    tooMany.parts = Array.from({ length: harness.harness.limits.partsPerMessage + 1 }, () => ({
      kind: 'text' as const,
      text: 'x',
    }));
    await expect(client.sendMessage({ message: tooMany })).rejects.toThrow(
      /a message can have at most 64/,
    );
  });

  it('a 1.0 client that names its version gets the 1.0 card, and the unnamed card only adds 0.3 fields to it', async () => {
    const v1 = await fetch(`${harness.url}/.well-known/agent-card.json`, {
      headers: { 'A2A-Version': '1.0' },
    });
    const card = await v1.json();
    expect(card).not.toHaveProperty('url');
    expect(card).not.toHaveProperty('protocolVersion');
    expect(v1.headers.get('vary')).toMatch(/A2A-Version/);
    const unnamed = await fetch(`${harness.url}/.well-known/agent-card.json`);
    expect(await unnamed.json()).toMatchObject(card);
    const etag = unnamed.headers.get('etag')!;
    expect(etag).not.toBe(v1.headers.get('etag'));
    // Node's fetch adds `Cache-Control: no-cache` to a conditional request; node:http does not.
    const again = await rawGet(`${harness.url}/.well-known/agent-card.json`, {
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
  });
});

describe('API keys hold for 0.3 callers', () => {
  const ALICE = 'alice-key-0123456789abcdef';
  const BOB = 'bob-key-0123456789abcdef';
  let keyed: TestHarness;
  beforeAll(async () => {
    keyed = await startHarness({
      apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB}`)),
    });
  });
  afterAll(() => keyed.stop());

  it.each<Binding>(['JSONRPC', 'HTTP+JSON'])(
    '%s: no key is refused; a task belongs to its principal',
    async (binding) => {
      // The card stays public: discovery works without a key.
      const anonymous = await connect(keyed.url, binding);
      const card = await anonymous.client.getAgentCard();
      expect(card.security).toEqual([{ bearer: [] }]);
      expect(card.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'Bearer' });
      // The refusal's own message, read by the 0.3 client from the 0.3 error body.
      await expect(anonymous.client.sendMessage({ message: userMessage('/help') })).rejects.toThrow(
        UNAUTHENTICATED_MESSAGE,
      );

      const alice = await connect(keyed.url, binding, { authorization: `Bearer ${ALICE}` });
      const task = asTask(await alice.client.sendMessage({ message: userMessage('/help') }));
      expect((await alice.client.getTask({ id: task.id })).id).toBe(task.id);
      const bob = await connect(keyed.url, binding, { authorization: `Bearer ${BOB}` });
      await expect(bob.client.getTask({ id: task.id })).rejects.toThrow(/not found/i);
    },
  );
});

describe('a plain 0.3 curl request', () => {
  it('a raw 0.3 message/send of /help, with no A2A-Version header, gets the /help reply', async () => {
    const response = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: 'm1',
            role: 'user',
            parts: [{ kind: 'text', text: '/help' }],
          },
        },
      }),
    });
    const body = await response.json();
    expect(body.error).toBeUndefined();
    expect(body.id).toBe(1);
    expect(body.result.kind).toBe('task');
    expect(body.result.status.state).toBe('input-required');
    expect(body.result.status.message.metadata).toEqual({ command: 'help' });
    expect(body.result.status.message.parts[0].text).toMatch(/^Commands:/);
  });
});
