/**
 * Every rule of SEMANTICS.md, end to end against the example agent over real
 * HTTP on loopback (raw JSON-RPC, HTTP+JSON and SSE).
 */
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleAgent, type RunningAgent } from './support/example-agent.js';
import { EXT, rawGet, rest, resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';

/** Turns that end at once, and turns slow enough for a message to land while they run. */
let agent: RunningAgent;
let slow: RunningAgent;
beforeAll(async () => {
  [agent, slow] = await Promise.all([startExampleAgent(0), startExampleAgent(400)]);
});
afterAll(() => Promise.all([agent.close(), slow.close()]));

const send = (
  text: string,
  ids: { taskId?: string; contextId?: string } = {},
  extra = {},
  on = agent,
) => rpc(on.baseUrl, 'SendMessage', { message: userText(text, ids), ...extra });

async function getTask(id: string, historyLength?: number, on = agent) {
  const { body } = await rpc(on.baseUrl, 'GetTask', { id, historyLength });
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

/** A task that has finished one model turn and now waits for input. */
async function idleTask(on = agent) {
  const { body } = await send('hello', {}, {}, on);
  expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return body.result.task;
}

const replyOf = (task: any) => task.status.message;
const texts = (message: any) =>
  message.parts.filter((p: any) => 'text' in p).map((p: any) => p.text);

describe('§1 Registry on the card', () => {
  it('§1: the card lists every command in registration order, three keys each, required false', async () => {
    const card = await (await fetch(`${agent.baseUrl}/.well-known/agent-card.json`)).json();
    const entries = card.capabilities.extensions.filter((e: any) => e.uri === EXT);
    expect(entries).toHaveLength(1);
    expect(entries[0].required).toBe(false);
    const commands = entries[0].params.commands;
    expect(commands.map((c: any) => c.name)).toEqual([
      'help',
      'echo',
      'boom',
      'count',
      'set',
      'spawn',
    ]);
    for (const command of commands)
      expect(Object.keys(command)).toEqual(['name', 'description', 'argument_hint']);
    expect(commands[0].argument_hint).toBe('');
  });

  it('§1: a command registered after start-up appears in the card served from then on', async () => {
    const url = `${agent.baseUrl}/.well-known/agent-card.json`;
    const before = await rawGet(url);
    expect(before.status).toBe(200);
    const etag = before.etag!;
    expect((await rawGet(url, { 'if-none-match': etag })).status).toBe(304);
    agent.server.registry.register({
      name: 'late',
      description: 'Registered late',
      run: () => 'late reply',
    });
    try {
      const after = await rawGet(url, { 'if-none-match': etag });
      expect(after.status).toBe(200);
      expect(after.etag).not.toBe(etag);
      const card = JSON.parse(after.body);
      const names = card.capabilities.extensions
        .find((e: any) => e.uri === EXT)
        .params.commands.map((c: any) => c.name);
      expect(names.at(-1)).toBe('late');
      expect(texts(replyOf((await send('/late')).body.result.task))).toEqual(['late reply']);
    } finally {
      agent.server.registry.unregister('late');
    }
    expect((await send('/late')).body.result.task.status.message.parts[0].text).toBe(
      'You said: /late',
    );
  });
});

describe('§2 What is a command', () => {
  // Each waits on a model turn of its own task: side by side, they wait once.
  it.concurrent.for<[string, string]>([
    ['/Help', 'capital letters'],
    [' /help', 'a leading space'],
    ['/etc/hosts', 'a path'],
    ['/help:x', 'no whitespace after the name'],
    ['/helpme', 'an unregistered name'],
  ])('§2: %s (%s) reaches the agent unchanged', async ([text], { expect }) => {
    const { body } = await send(text);
    const task = body.result.task;
    expect(texts(replyOf(task))).toEqual([`You said: ${text}`]);
    expect(replyOf(task).metadata?.command).toBeUndefined();
    expect(agent.executorSaw).toContain(text);
  });

  it('§2: a /help text part sent with another part reaches the agent', async () => {
    const message = { ...userText('/help'), parts: [{ text: '/help' }, { data: { x: 1 } }] };
    const { body } = await rpc(agent.baseUrl, 'SendMessage', { message });
    expect(replyOf(body.result.task).metadata?.command).toBeUndefined();
    expect(texts(replyOf(body.result.task))[0]).toBe('You said: /help');
  });

  it('§2: arguments are everything after the whitespace, trailing whitespace removed, inner kept', async () => {
    const { body } = await send('/echo \t a  b\n c \r\n');
    expect(texts(replyOf(body.result.task))).toEqual(['a  b\n c']);
    expect(replyOf(body.result.task).parts[1].data).toEqual({ echoed: 'a  b\n c' });
  });

  it('§2: commands never reach the agent executor', async () => {
    const before = agent.executorSaw.length;
    await send('/help');
    await send('/echo x');
    expect(agent.executorSaw.slice(before)).toEqual([]);
  });
});

describe('§3 The reply', () => {
  it('§3: SendMessage returns the Task with the reply as status.message', async () => {
    const { body } = await send('/echo hi');
    const task = body.result.task;
    const reply = replyOf(task);
    expect(reply.role).toBe('ROLE_AGENT');
    expect(reply.taskId).toBe(task.id);
    expect(reply.contextId).toBe(task.contextId);
    expect(reply.messageId).not.toBe(task.history[0].messageId);
    expect(texts(reply)).toEqual(['hi']);
    expect(reply.metadata).toEqual({ command: 'echo' });
    expect(task.metadata ?? {}).toEqual({});
  });

  it('§3: SendMessage carries the reply once: as status.message, with the command alone as history', async () => {
    const task = await idleTask();
    for (const ids of [{}, { taskId: task.id }]) {
      const { body } = await send('/echo once', ids);
      const answered = body.result.task;
      expect(answered.history.map(texts)).toEqual([['/echo once']]);
      expect(answered.history[0].metadata).toEqual({ command: 'echo' });
      expect(texts(replyOf(answered))).toEqual(['once']);
    }
    const { body } = await send('/echo none', {}, { configuration: { historyLength: 0 } });
    expect(body.result.task.history ?? []).toEqual([]);
    expect(texts(replyOf(body.result.task))).toEqual(['none']);
  });

  it('§3: the state stays what it was before the command', async () => {
    const task = await idleTask();
    const { body } = await send('/help', { taskId: task.id });
    expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('§3: SendMessage returns the Task with the reply even with returnImmediately', async () => {
    const { body } = await send('/echo now', {}, { configuration: { returnImmediately: true } });
    expect(texts(replyOf(body.result.task))).toEqual(['now']);
    expect(replyOf(body.result.task).metadata).toEqual({ command: 'echo' });
  });

  it('§3: SendStreamingMessage yields the task snapshot, then the reply update, then ends', async () => {
    const task = await idleTask();
    const { events } = await rpcStream(agent.baseUrl, 'SendStreamingMessage', {
      message: userText('/echo streamed', { taskId: task.id }),
    });
    const all = (await events.rest()).map(resultOf);
    expect(all).toHaveLength(2);
    expect(all[0].task.id).toBe(task.id);
    const update = all[1].statusUpdate;
    expect(update.taskId).toBe(task.id);
    expect(update.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(update.metadata).toEqual({ command: 'echo' });
    expect(update.status.message.metadata).toEqual({ command: 'echo' });
    expect(texts(update.status.message)).toEqual(['streamed']);
  });

  it('§3: the command and its reply are kept in history; Task.metadata keeps no reply tags', async () => {
    const task = await idleTask();
    const { body } = await send('/echo kept', { taskId: task.id });
    const stored = await getTask(task.id);
    const last = stored.history.slice(-2);
    expect(texts(last[0])).toEqual(['/echo kept']);
    expect(last[0].metadata).toEqual({ command: 'echo' });
    expect(last[1].messageId).toBe(replyOf(body.result.task).messageId);
    expect(last[1].metadata).toEqual({ command: 'echo' });
    expect(stored.metadata?.command).toBeUndefined();
    expect(stored.metadata?.task_ref).toBeUndefined();
  });

  it('§3: a SubscribeToTask stream gets the reply and goes on undisturbed', async () => {
    const task = await idleTask();
    const { events } = await rpcStream(agent.baseUrl, 'SubscribeToTask', { id: task.id });
    expect(resultOf(await events.next()).task.id).toBe(task.id);
    await send('/echo to subscribers', { taskId: task.id });
    const update = resultOf(await events.next()).statusUpdate;
    expect(update.metadata).toEqual({ command: 'echo' });
    expect(texts(update.status.message)).toEqual(['to subscribers']);
    // The same stream still carries the next model turn.
    await send('after the command', { taskId: task.id });
    const next = resultOf(await events.next());
    expect(next.task ?? next.statusUpdate).toBeDefined();
    await events.cancel();
  });

  it('§3 §4: the stream of a turn in flight gets the reply and still ends with the turn', async () => {
    const task = await idleTask(slow);
    const { events } = await rpcStream(slow.baseUrl, 'SendStreamingMessage', {
      message: userText('slow turn', { taskId: task.id }),
    });
    const first = resultOf(await events.next());
    expect(first.task.status.state).toBe('TASK_STATE_WORKING');
    const { body } = await send('/echo mid-turn', { taskId: task.id }, {}, slow);
    // §4: answered at once, while the turn still runs.
    expect(body.result.task.status.state).toBe('TASK_STATE_WORKING');
    const rest = (await events.rest()).map(resultOf);
    const reply = rest.find((e) => e.statusUpdate?.metadata?.command === 'echo');
    expect(texts(reply.statusUpdate.status.message)).toEqual(['mid-turn']);
    const final = rest.at(-1).statusUpdate;
    expect(final.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(texts(final.status.message)).toEqual(['You said: slow turn']);
    expect(rest.indexOf(reply)).toBeLessThan(rest.length - 1);
    const stored = await getTask(task.id, undefined, slow);
    expect(stored.metadata?.command).toBeUndefined();
    expect(stored.history.map((m: any) => texts(m)[0])).toContain('mid-turn');
  });
});

describe('§4 Task states', () => {
  it('§4: a command with no taskId creates an input-required task, then replies', async () => {
    const { body } = await send('/set model fast-one');
    const task = body.result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const stored = await getTask(task.id);
    expect(stored.metadata.model).toBe('fast-one');
    expect(stored.history).toHaveLength(2);
    // The task then takes an ordinary message as its first prompt.
    const { body: turn } = await send('first prompt', { taskId: task.id });
    expect(texts(replyOf(turn.result.task))).toEqual(['You said: first prompt']);
    expect((await getTask(task.id)).metadata.model).toBe('fast-one');
  });

  it('§4: a command runs on a canceled task and leaves it canceled', async () => {
    const task = await idleTask();
    const { body: canceled } = await rpc(agent.baseUrl, 'CancelTask', { id: task.id });
    expect(canceled.result.status.state).toBe('TASK_STATE_CANCELED');
    const { body } = await send('/help', { taskId: task.id });
    expect(body.result.task.status.state).toBe('TASK_STATE_CANCELED');
    expect(replyOf(body.result.task).metadata).toEqual({ command: 'help' });
    expect((await getTask(task.id)).status.state).toBe('TASK_STATE_CANCELED');
    // Ordinary messages to a terminal task are still refused, as the protocol says.
    const { body: refused } = await send('hello again', { taskId: task.id });
    expect(refused.error).toBeDefined();
  });

  it('§4: ordinary messages during a turn queue in order; no stream breaks, none is lost', async () => {
    const task = await idleTask(slow);
    const first = await rpcStream(slow.baseUrl, 'SendStreamingMessage', {
      message: userText('one', { taskId: task.id }),
    });
    expect(resultOf(await first.events.next()).task).toBeDefined();
    const second = send('two', { taskId: task.id }, {}, slow);
    const third = send('three', { taskId: task.id }, {}, slow);
    const firstEvents = (await first.events.rest()).map(resultOf);
    expect(firstEvents.at(-1).statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const [two, three] = await Promise.all([second, third]);
    expect(two.body.error).toBeUndefined();
    expect(three.body.error).toBeUndefined();
    const stored = await getTask(task.id, undefined, slow);
    expect(stored.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const said = stored.history.map((m: any) => texts(m)[0]);
    expect(said.slice(-6)).toEqual([
      'one',
      'You said: one',
      'two',
      'You said: two',
      'three',
      'You said: three',
    ]);
  });
});

describe('§5 Errors', () => {
  it('§5: a handler that throws gets a reply with no stack trace, path or secret', async () => {
    const task = await idleTask();
    const { body } = await send('/boom', { taskId: task.id });
    const reply = replyOf(body.result.task);
    expect(reply.metadata).toEqual({ command: 'boom' });
    const text = texts(reply).join('\n');
    expect(text).toMatch(/boom failed/);
    expect(text).not.toMatch(/ENOENT|secret|api-key|handler\.ts|at Object/);
    expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('§5: bad arguments get a reply quoting the value and what would work', async () => {
    const { body } = await send('/count lots');
    expect(texts(replyOf(body.result.task))[0]).toBe('"lots" is not a whole number; try /count 3');
  });

  it('§5: an unknown taskId is a protocol error', async () => {
    const { body } = await send('/help', { taskId: crypto.randomUUID() });
    expect(body.error?.code).toBe(-32001);
  });

  it('§5: a contextId that does not match the task is a protocol error', async () => {
    const task = await idleTask();
    const { body } = await send('/help', { taskId: task.id, contextId: 'another-context' });
    expect(body.error).toBeDefined();
    expect(body.error!.message).toMatch(/contextId/);
  });
});

describe('§6 Activation', () => {
  it('§6: commands run without A2A-Extensions, and nothing is echoed', async () => {
    const response = await send('/help');
    expect(response.body.result.task.status.message.metadata).toEqual({ command: 'help' });
    expect(response.headers.get('a2a-extensions')).toBeNull();
  });

  it('§6: JSON-RPC echoes the extension when the request names it', async () => {
    const response = await rpc(
      agent.baseUrl,
      'SendMessage',
      { message: userText('/help') },
      { extensions: true },
    );
    expect(response.headers.get('a2a-extensions')).toBe(EXT);
  });

  it('§6: SSE responses echo the extension too', async () => {
    const { response, events } = await rpcStream(
      agent.baseUrl,
      'SendStreamingMessage',
      { message: userText('/help') },
      { extensions: true },
    );
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(response.headers.get('a2a-extensions')).toBe(EXT);
    await events.rest();
  });

  it('§6: HTTP+JSON message:send and message:stream echo it as well', async () => {
    const sent = await rest(
      agent.baseUrl,
      '/message:send',
      { message: userText('/help') },
      { extensions: true },
    );
    expect(sent.status).toBe(200);
    expect(sent.headers.get('a2a-extensions')).toBe(EXT);
    expect(sent.body.task.status.message.metadata).toEqual({ command: 'help' });
    const streamed = await rest(
      agent.baseUrl,
      '/message:stream',
      { message: userText('/help') },
      { extensions: true },
    );
    expect(streamed.headers.get('a2a-extensions')).toBe(EXT);
    const events = await streamed.events!.rest();
    expect(events.map((e) => Object.keys(e)[0])).toEqual(['task', 'statusUpdate']);
    expect(events[1].statusUpdate.metadata).toEqual({ command: 'help' });
  });
});

describe('§7 Sub-tasks', () => {
  it('§7: a sub-task is linked both ways, readable at once, and runs on its own', async () => {
    const parent = await idleTask();
    const { body } = await send('/spawn write a poem', { taskId: parent.id });
    const reply = replyOf(body.result.task);
    const subId = reply.metadata.task_ref;
    expect(reply.metadata).toEqual({ command: 'spawn', task_ref: subId });
    const sub = await getTask(subId);
    expect(sub.contextId).toBe(parent.contextId);
    expect(sub.metadata['a2a-commands']).toEqual({ parent: parent.id });
    expect((await getTask(parent.id)).metadata['a2a-commands']).toEqual({ subtasks: [subId] });
    const done = await waitFor(async () => {
      const t = await getTask(subId);
      return t.status.state === 'TASK_STATE_INPUT_REQUIRED' ? t : undefined;
    }, 'the sub-task to finish its turn');
    expect(texts(done.status.message)).toEqual(['You said: write a poem']);
    expect(body.result.task.metadata?.task_ref).toBeUndefined();
  });

  it('§7: the event carries task_ref in its metadata too', async () => {
    const { events } = await rpcStream(agent.baseUrl, 'SendStreamingMessage', {
      message: userText('/spawn x'),
    });
    const all = (await events.rest()).map(resultOf);
    const update = all[1].statusUpdate;
    expect(Object.keys(update.metadata).sort()).toEqual(['command', 'task_ref']);
    expect(update.metadata.command).toBe('spawn');
  });
});

describe('the card over HTTP', () => {
  it('is gzipped for clients that accept it, and plain for those that do not', async () => {
    const url = `${agent.baseUrl}/.well-known/agent-card.json`;
    const zipped = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      http
        .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              encoding: response.headers['content-encoding'],
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    });
    expect(zipped.encoding).toBe('gzip');
    const card = JSON.parse(gunzipSync(zipped.body).toString());
    expect(card.capabilities.extensions.some((e: any) => e.uri === EXT)).toBe(true);
    const plain = await rawGet(url);
    expect(JSON.parse(plain.body)).toEqual(card);
  });
});
