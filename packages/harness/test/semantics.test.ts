/** Every SEMANTICS rule end to end against the running harness, over HTTP. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXT, rawGet, rest, resultOf, rpc, rpcStream, userText, waitFor } from 'a2a-testing/http';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

const send = (text: string, ids: { taskId?: string; contextId?: string } = {}, extra = {}) =>
  rpc(harness.url, 'SendMessage', { message: userText(text, ids), ...extra });
const getTask = async (id: string) => (await rpc(harness.url, 'GetTask', { id })).body.result;
const text = (message: any) => message.parts[0].text as string;
const cardCommands = async () => {
  const card = JSON.parse((await rawGet(`${harness.url}/.well-known/agent-card.json`)).body);
  return card.capabilities.extensions
    .find((e: any) => e.uri === EXT)
    .params.commands.map((c: any) => c.name);
};

describe('§1 the card follows the registry', () => {
  it('§1: a command file added while the server runs appears in the card, runs, and goes when removed', async () => {
    const dir = path.join(harness.dataDir, 'commands');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'haiku.md');
    writeFileSync(
      file,
      '---\ndescription: Write a haiku\nargument-hint: <topic>\n---\nWrite a haiku about $ARGUMENTS.\n',
    );
    await waitFor(
      async () => ((await cardCommands()).includes('haiku') ? true : undefined),
      'the card to list /haiku',
    );
    expect((await cardCommands()).slice(0, 9)).toEqual([
      'help',
      'model',
      'status',
      'system',
      'title',
      'clear',
      'fork',
      'spawn',
      'tasks',
    ]);
    const { body } = await send('/haiku the sea');
    const reply = body.result.task.status.message;
    expect(reply.metadata.command).toBe('haiku');
    const sub = await waitFor(async () => {
      const t = await getTask(reply.metadata.task_ref);
      return t.status.state === 'TASK_STATE_INPUT_REQUIRED' ? t : undefined;
    }, 'the /haiku sub-task');
    expect(text(sub.status.message)).toContain('You said: Write a haiku about the sea.');
    rmSync(file);
    await waitFor(
      async () => ((await cardCommands()).includes('haiku') ? undefined : true),
      '/haiku to leave the card',
    );
  });
});

describe('§2 what is a command', () => {
  it.each(['/Help', ' /help', '/etc/hosts', '/help:x', '/helpme'])(
    '§2: %j reaches the model unchanged',
    async (sent) => {
      const task = (await send(sent)).body.result.task;
      expect(task.status.message.metadata?.command).toBeUndefined();
      expect(text(task.status.message)).toContain(`You said: ${sent.trim()}`);
    },
  );

  it('§2: /help with another part reaches the model', async () => {
    const message = { ...userText('/help'), parts: [{ text: '/help' }, { data: { a: 1 } }] };
    const task = (await rpc(harness.url, 'SendMessage', { message })).body.result.task;
    expect(task.status.message.metadata?.command).toBeUndefined();
    expect(text(task.status.message)).toContain('offline model');
  });
});

describe('§3 the reply', () => {
  it('§3: one tagged status message; the state is unchanged; Task.metadata stays clean', async () => {
    const task = (await send('hello')).body.result.task;
    const { body } = await send('/title Kept', { taskId: task.id });
    const reply = body.result.task.status.message;
    expect(reply.role).toBe('ROLE_AGENT');
    expect(reply.taskId).toBe(task.id);
    expect(reply.contextId).toBe(task.contextId);
    expect(reply.metadata).toEqual({ command: 'title' });
    expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const stored = await getTask(task.id);
    expect(stored.metadata.command).toBeUndefined();
    expect(stored.history.slice(-2).map((m: any) => m.metadata?.command)).toEqual([
      'title',
      'title',
    ]);
  });

  it('§3: SendMessage returns the reply even with returnImmediately', async () => {
    const { body } = await send('/status', {}, { configuration: { returnImmediately: true } });
    expect(body.result.task.status.message.metadata).toEqual({ command: 'status' });
  });

  it('§3: SendStreamingMessage yields the snapshot, then the reply update, then ends', async () => {
    const { events } = await rpcStream(harness.url, 'SendStreamingMessage', {
      message: userText('/model'),
    });
    const all = (await events.rest()).map(resultOf);
    expect(all.map((e) => Object.keys(e)[0])).toEqual(['task', 'statusUpdate']);
    expect(all[1].statusUpdate.metadata).toEqual({ command: 'model' });
    const data = all[1].statusUpdate.status.message.parts.find((p: any) => 'data' in p).data;
    expect(data.current).toBe('offline/echo');
  });

  it('§3: a SubscribeToTask stream gets the reply and then the next turn', async () => {
    const task = (await send('hello')).body.result.task;
    const { events } = await rpcStream(harness.url, 'SubscribeToTask', { id: task.id });
    expect(resultOf(await events.next()).task.id).toBe(task.id);
    await send('/title Watched', { taskId: task.id });
    expect(resultOf(await events.next()).statusUpdate.metadata).toEqual({ command: 'title' });
    await send('go on', { taskId: task.id });
    const following = [];
    for (let event = resultOf(await events.next()); ; event = resultOf(await events.next())) {
      following.push(event);
      if (event.statusUpdate?.status.state === 'TASK_STATE_INPUT_REQUIRED') break;
    }
    expect(following.some((e) => e.artifactUpdate)).toBe(true);
    await events.cancel();
  });
});

describe('§4 task states', () => {
  it('§4: /model as the first message creates an idle task and sets its model before any prompt', async () => {
    const { body } = await send('/model offline/echo');
    const task = body.result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect((await getTask(task.id)).metadata['a2a-harness'].model).toBe('offline/echo');
    const turn = (await send('first prompt', { taskId: task.id })).body.result.task;
    expect(text(turn.status.message)).toContain('(offline/echo)');
  });

  it('§4: /fork works on a canceled task and the fork goes on independently', async () => {
    const task = (await send('something worth keeping')).body.result.task;
    await rpc(harness.url, 'CancelTask', { id: task.id });
    const { body } = await send('/fork Second life', { taskId: task.id });
    expect(body.result.task.status.state).toBe('TASK_STATE_CANCELED');
    const forkId = body.result.task.status.message.metadata.task_ref;
    const fork = await getTask(forkId);
    expect(fork.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(fork.history.map(text)).toContain('something worth keeping');
    const next = (await send('continue here', { taskId: forkId })).body.result.task;
    expect(text(next.status.message)).toContain('I got 3 messages');
  });
});

describe('§5 errors', () => {
  it('§5: bad arguments are explained, quoting the value; nothing changes', async () => {
    const task = (await send('/title Short')).body.result.task;
    const { body } = await send(`/title ${'x'.repeat(250)}`, { taskId: task.id });
    expect(text(body.result.task.status.message)).toMatch(/200/);
    expect((await getTask(task.id)).metadata['a2a-harness'].title).toBe('Short');
  });

  it('§5: an unknown taskId and a mismatched contextId are protocol errors', async () => {
    expect((await send('/help', { taskId: crypto.randomUUID() })).body.error?.code).toBe(-32001);
    const task = (await send('hi')).body.result.task;
    expect(
      (await send('/help', { taskId: task.id, contextId: 'other' })).body.error?.message,
    ).toMatch(/contextId/);
  });
});

describe('§6 activation', () => {
  it('§6: echoed on JSON-RPC, HTTP+JSON and SSE when named; commands run without it', async () => {
    const plain = await send('/help');
    expect(plain.body.result.task.status.message.metadata).toEqual({ command: 'help' });
    expect(plain.headers.get('a2a-extensions')).toBeNull();
    const named = await rpc(
      harness.url,
      'SendMessage',
      { message: userText('/help') },
      { extensions: true },
    );
    expect(named.headers.get('a2a-extensions')).toBe(EXT);
    const viaRest = await rest(
      harness.url,
      '/message:send',
      { message: userText('/help') },
      { extensions: true },
    );
    expect(viaRest.headers.get('a2a-extensions')).toBe(EXT);
    const streamed = await rpcStream(
      harness.url,
      'SendStreamingMessage',
      { message: userText('/help') },
      { extensions: true },
    );
    expect(streamed.response.headers.get('a2a-extensions')).toBe(EXT);
    await streamed.events.rest();
  });
});

describe('§7 sub-tasks', () => {
  it("§7: a sub-task's first prompt reaches the model even when it starts with '/'", async () => {
    const spawned = (await send('/spawn /help')).body.result.task;
    const ref = spawned.status.message.metadata.task_ref;
    const sub = await waitFor(async () => {
      const t = await getTask(ref);
      return t.status.state === 'TASK_STATE_INPUT_REQUIRED' ? t : undefined;
    }, 'the /spawn /help sub-task to be answered');
    expect(text(sub.status.message)).toContain('You said: /help');
    expect(sub.status.message.metadata?.command).toBeUndefined();
  });

  it("§7: a custom command whose prompt starts with '/' runs it on the model too", async () => {
    const dir = path.join(harness.dataDir, 'commands');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'slashy.md');
    writeFileSync(file, '---\ndescription: Starts with a slash\n---\n/help $ARGUMENTS\n');
    try {
      await waitFor(
        async () => ((await cardCommands()).includes('slashy') ? true : undefined),
        'the card to list /slashy',
      );
      const reply = (await send('/slashy model')).body.result.task.status.message;
      const sub = await waitFor(async () => {
        const t = await getTask(reply.metadata.task_ref);
        return t.status.state === 'TASK_STATE_INPUT_REQUIRED' ? t : undefined;
      }, 'the /slashy sub-task to be answered');
      expect(text(sub.status.message)).toContain('You said: /help model');
    } finally {
      rmSync(file);
    }
  });

  it('§7: /tasks lists the tasks of the context, the sub-task included', async () => {
    const parent = (await send('/title Parent')).body.result.task;
    const spawned = (await send('/spawn a side job', { taskId: parent.id })).body.result.task;
    const ref = spawned.status.message.metadata.task_ref;
    expect((await getTask(ref)).contextId).toBe(parent.contextId);
    const listed = (await send('/tasks', { taskId: parent.id })).body.result.task.status.message;
    const data = listed.parts.find((p: any) => 'data' in p).data;
    expect(data.tasks.map((t: any) => t.id).sort()).toEqual([parent.id, ref].sort());
    expect(data.tasks.find((t: any) => t.current).id).toBe(parent.id);
  });
});
