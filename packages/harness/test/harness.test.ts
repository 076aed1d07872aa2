/** The harness end to end over HTTP: card, commands, offline turns, streaming, queueing, cancel. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXT, rest, resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
/** A harness on the fake OpenAI model, for turns that must still be running when the test acts. */
let held: TestHarness;
let model: FakeOpenAI;
beforeAll(async () => {
  harness = await startHarness({ config: { offline: { latencyMs: 5 } } });
  model = await startFakeOpenAI({ models: ['gpt-test'] });
  held = await startHarness({
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: model.baseUrl },
    config: { defaultModel: 'openai/gpt-test' },
  });
});
afterAll(async () => {
  await harness.stop();
  await held?.stop();
  await model?.close();
});

/** Answers begun from now stream until the returned function is called. */
function holdAnswers(): () => void {
  let release!: () => void;
  model.streamUntil(new Promise<void>((resolve) => (release = resolve)));
  return release;
}

const send = (text: string, ids: { taskId?: string; contextId?: string } = {}) =>
  rpc(harness.url, 'SendMessage', { message: userText(text, ids) });
const replyText = (task: any) => task.status.message.parts[0].text as string;
const getTask = async (id: string) => (await rpc(harness.url, 'GetTask', { id })).body.result;

describe('the card', () => {
  it('declares streaming, both bindings for 1.0 then 0.3, and the commands extension with the built-ins in order', async () => {
    const card = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json();
    expect(card.capabilities.streaming).toBe(true);
    expect(
      card.supportedInterfaces.map((i: any) => `${i.protocolBinding} ${i.protocolVersion}`),
    ).toEqual(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'JSONRPC 0.3', 'HTTP+JSON 0.3']);
    expect(card.supportedInterfaces[0].url).toBe(`${harness.url}/a2a/jsonrpc`);
    const extension = card.capabilities.extensions.find((e: any) => e.uri === EXT);
    expect(extension.required).toBe(false);
    expect(extension.params.commands.map((c: any) => c.name)).toEqual([
      'help',
      'model',
      'status',
      'system',
      'title',
      'clear',
      'fork',
      'spawn',
      'tasks',
      'stop',
    ]);
  });
});

describe('the public URL', () => {
  it('the card names --public-url when given, for servers behind another address', async () => {
    const behind = await startHarness({ publicUrl: 'https://agent.example.test/' });
    try {
      const served = await (
        await fetch(`${behind.listeningUrl}/.well-known/agent-card.json`)
      ).json();
      expect(served.supportedInterfaces[0].url).toBe('https://agent.example.test/a2a/jsonrpc');
    } finally {
      await behind.stop();
    }
  });
});

describe('conversations', () => {
  it('an ordinary message gets an offline-model reply and waits for input', async () => {
    const { body } = await send('hello there');
    const task = body.result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(replyText(task)).toContain('offline model');
    expect(replyText(task)).toContain('You said: hello there');
  });

  it('the answer streams as artifact chunks, then the turn ends in input-required', async () => {
    const { events } = await rpcStream(harness.url, 'SendStreamingMessage', {
      message: userText('stream me please'),
    });
    const all = (await events.rest()).map(resultOf);
    expect(Object.keys(all[0])).toEqual(['task']);
    const chunks = all.filter((e) => e.artifactUpdate).map((e) => e.artifactUpdate);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0].append ?? false).toBe(false);
    expect(chunks.slice(1).every((c: any) => c.append)).toBe(true);
    expect(chunks.at(-1).lastChunk).toBe(true);
    const streamed = chunks.map((c: any) => c.artifact.parts[0].text).join('');
    const final = all.at(-1).statusUpdate;
    expect(final.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(final.status.message.parts[0].text).toBe(streamed);
    // The final message is stored, and the answer stays the task's artifact (SEMANTICS §4).
    const stored = await getTask(final.taskId);
    expect(stored.artifacts.map((a: any) => [a.artifactId, a.parts[0].text])).toEqual([
      [chunks[0].artifact.artifactId, streamed],
    ]);
    expect(stored.history.map((m: any) => m.parts[0].text)).toEqual(['stream me please', streamed]);
  });

  it('§3: commands and replies never reach the model as context', async () => {
    const first = (await send('one')).body.result.task;
    expect(replyText(first)).toContain('I got 1 message');
    await send('/help', { taskId: first.id });
    await send('/title Counting', { taskId: first.id });
    const third = (await send('two', { taskId: first.id })).body.result.task;
    // one, its answer, two: the commands and their replies are not counted.
    expect(replyText(third)).toContain('I got 3 messages');
    expect((await getTask(first.id)).history).toHaveLength(8);
  });

  it('the system prompt reaches the model', async () => {
    const task = (await send('/system You are terse.')).body.result.task;
    expect(replyText((await send('hi', { taskId: task.id })).body.result.task)).toContain(
      'and a system prompt',
    );
  });

  it('/clear: later turns start from an empty context, the history stays', async () => {
    const task = (await send('remember this')).body.result.task;
    await send('and this', { taskId: task.id });
    await send('/clear', { taskId: task.id });
    const after = (await send('fresh start', { taskId: task.id })).body.result.task;
    expect(replyText(after)).toContain('I got 1 message');
    expect((await getTask(task.id)).history.length).toBeGreaterThan(6);
  });

  it('§4: ordinary messages during a turn queue in order and none is lost', async () => {
    const task = (await send('start')).body.result.task;
    const replies = await Promise.all(
      ['a', 'b', 'c'].map((text) => send(text, { taskId: task.id })),
    );
    for (const reply of replies) expect(reply.body.error).toBeUndefined();
    const texts = (await getTask(task.id)).history.map((m: any) => m.parts[0].text as string);
    const users = texts.filter((t: string) => !t.startsWith('This is the offline model'));
    expect(users).toEqual(['start', 'a', 'b', 'c']);
    expect(texts).toHaveLength(8);
    expect((await getTask(task.id)).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('§4: a command during a turn is answered at once; the turn stream goes on and gets the reply', async () => {
    const task = (await rpc(held.url, 'SendMessage', { message: userText('hello') })).body.result
      .task;
    const release = holdAnswers();
    try {
      const { events } = await rpcStream(held.url, 'SendStreamingMessage', {
        message: userText('a long answer please', { taskId: task.id }),
      });
      await events.next();
      const { body } = await rpc(held.url, 'SendMessage', {
        message: userText('/status', { taskId: task.id }),
      });
      expect(body.result.task.status.state).toBe('TASK_STATE_WORKING');
      expect(body.result.task.status.message.metadata).toEqual({ command: 'status' });
      release();
      const all = (await events.rest()).map(resultOf);
      expect(all.some((e) => e.statusUpdate?.metadata?.command === 'status')).toBe(true);
      expect(all.at(-1).statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    } finally {
      release();
    }
  });

  it('CancelTask aborts the model call in flight and cancels the task', async () => {
    const release = holdAnswers();
    try {
      const { events } = await rpcStream(held.url, 'SendStreamingMessage', {
        message: userText('take your time'),
      });
      const taskId = resultOf(await events.next()).task.id;
      const { body } = await rpc(held.url, 'CancelTask', { id: taskId });
      expect(body.result.status.state).toBe('TASK_STATE_CANCELED');
      const rest = (await events.rest()).map(resultOf);
      expect(rest.at(-1).statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
      await new Promise((resolve) => setTimeout(resolve, 400));
      const task = (await rpc(held.url, 'GetTask', { id: taskId })).body.result;
      expect(task.status.state).toBe('TASK_STATE_CANCELED');
      expect(task.history).toHaveLength(1);
      // §4: commands still run on the canceled task.
      const status = await rpc(held.url, 'SendMessage', {
        message: userText('/status', { taskId }),
      });
      expect(status.body.result.task.status.state).toBe('TASK_STATE_CANCELED');
    } finally {
      release();
    }
  });

  it('§7: /spawn runs a sub-task on the model in the background, linked both ways', async () => {
    const parent = (await send('/system Be brief.')).body.result.task;
    const { body } = await send('/spawn write a haiku', { taskId: parent.id });
    const ref = body.result.task.status.message.metadata.task_ref;
    expect(body.result.task.status.message.metadata).toEqual({ command: 'spawn', task_ref: ref });
    const sub = await waitFor(async () => {
      const t = await getTask(ref);
      return t.status.state === 'TASK_STATE_INPUT_REQUIRED' ? t : undefined;
    }, 'the sub-task to answer');
    expect(sub.contextId).toBe(parent.contextId);
    expect(sub.metadata['a2a-commands']).toEqual({ parent: parent.id });
    expect(sub.metadata['a2a-harness'].system).toBe('Be brief.');
    expect(replyText(sub)).toContain('You said: write a haiku');
    expect((await getTask(parent.id)).metadata['a2a-commands'].subtasks).toEqual([ref]);
  });

  it('new tasks and contexts get ids that sort by creation time (UUIDv7), from a command or a turn', async () => {
    const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const byCommand = (await send('/help')).body.result.task;
    const byTurn = (await send('hello')).body.result.task;
    for (const task of [byCommand, byTurn]) {
      expect(task.id).toMatch(v7);
      expect(task.contextId).toMatch(v7);
    }
    // The first 48 bits are the time in milliseconds.
    expect(byTurn.id.slice(0, 13) >= byCommand.id.slice(0, 13)).toBe(true);
  });

  it('refuses a malformed message with a clear protocol error and keeps serving', async () => {
    const empty = await rpc(harness.url, 'SendMessage', {
      message: { messageId: 'x', role: 'ROLE_USER', parts: [] },
    });
    expect(empty.body.error?.message).toMatch(/parts/);
    const noRole = await rpc(harness.url, 'SendMessage', {
      message: { messageId: 'y', parts: [{ text: 'hi' }] },
    });
    expect(noRole.body.error?.message).toMatch(/role/);
    expect((await send('still here?')).body.result.task.status.state).toBe(
      'TASK_STATE_INPUT_REQUIRED',
    );
  });

  it('HTTP+JSON message:send and tasks/{id} work too', async () => {
    const sent = await rest(harness.url, '/message:send', { message: userText('over rest') });
    expect(sent.status).toBe(200);
    const got = await rest(harness.url, `/tasks/${sent.body.task.id}`);
    expect(got.body.history).toHaveLength(2);
  });
});
