/**
 * `a2a-harness acp`, the ACP bridge, in front of a real harness: driven as an
 * editor drives it (a child process on stdio, from the ACP SDK's client
 * side). The offline model is slowed so that answers stream and can be
 * stopped mid-answer; the answer another editor joins is the fake OpenAI
 * model's, held open until the editor has joined.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentText,
  commandNames,
  newSession,
  prompt,
  startBridge,
  until,
  updatesOf,
  type BridgeProcess,
} from 'a2a-testing/acp-bridge';
import { bundledHarnessCli } from 'a2a-testing/harness-cli';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

const harnessDir = fileURLToPath(new URL('..', import.meta.url));

let model: FakeOpenAI;
let harness: TestHarness;
let bridge: BridgeProcess;

/** The bridge as `a2a-harness acp <url>` runs it, reading the card again every 200 ms. */
const startHarnessBridge = () =>
  startBridge(harness.url, {
    command: { cwd: harnessDir, argv: [bundledHarnessCli(), 'acp'] },
    args: ['--card-refresh', '200'],
  });

beforeAll(async () => {
  model = await startFakeOpenAI({ models: ['gpt-test'] });
  // 40 ms a word: a long answer takes seconds, time to stop it.
  harness = await startHarness({
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: model.baseUrl },
    config: { offline: { latencyMs: 40 }, defaultModel: 'offline/echo' },
  });
  bridge = await startHarnessBridge();
});

/**
 * A second client, as an editor that loads tasks: one for the file, started by the first
 * test that needs it; each test reads only its own session's updates.
 */
let editorBridge: Promise<BridgeProcess> | undefined;
const startEditor = () => (editorBridge ??= startHarnessBridge());

afterAll(async () => {
  await (await editorBridge)?.close();
  await bridge?.close();
  await harness?.stop();
  await model?.close();
});

/** Tests that start a second bridge from source, which is slow on a busy machine. */
const SECOND_BRIDGE_MS = 90_000;

const words = (count: number) => Array.from({ length: count }, (_, i) => `word${i}`).join(' ');
const LONG = words(80);

const chunksOf = (updates: SessionUpdate[]) =>
  updates.filter((update) => update.sessionUpdate === 'agent_message_chunk');

function taskIdOf(bridgeProcess: BridgeProcess, sessionId: string): string | undefined {
  for (const update of updatesOf(bridgeProcess, sessionId)) {
    const meta = update._meta as { a2aTask?: { taskId?: string } } | undefined;
    if (update.sessionUpdate === 'session_info_update' && meta?.a2aTask?.taskId) {
      return meta.a2aTask.taskId;
    }
  }
  return undefined;
}

describe('commands', () => {
  it('arrive after session/new, and change when a custom command file is added and removed', async () => {
    const sessionId = await newSession(bridge);
    const names = await until(() => commandNames(bridge, sessionId), 'the command list');
    expect(names).toEqual(expect.arrayContaining(['help', 'model', 'stop']));
    expect(names).not.toContain('standup');
    const file = path.join(harness.dataDir, 'commands', 'standup.md');
    writeFileSync(
      file,
      '---\ndescription: Summarise my day\nargument-hint: <notes>\n---\n\nSummarise my day: $ARGUMENTS\n',
    );
    try {
      await until(() => commandNames(bridge, sessionId)?.includes('standup'), '/standup listed');
      const list = updatesOf(bridge, sessionId).findLast(
        (update) => update.sessionUpdate === 'available_commands_update',
      );
      expect(list?.sessionUpdate === 'available_commands_update' && list.availableCommands).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'standup', description: 'Summarise my day' }),
        ]),
      );
    } finally {
      rmSync(file);
    }
    await until(() => !commandNames(bridge, sessionId)?.includes('standup'), '/standup to go');
  });

  it('/help and /model <id> run as commands and show as replies, with their data', async () => {
    const sessionId = await newSession(bridge);
    let from = bridge.notifications.length;
    expect((await prompt(bridge, sessionId, '/help')).stopReason).toBe('end_turn');
    const help = chunksOf(updatesOf(bridge, sessionId, from));
    expect(help).toHaveLength(1);
    expect(agentText(help)).toMatch(/^\*\*\/help\*\*\n\nCommands:\n/);
    const helpMeta = (help[0]!._meta as Record<string, any>)['a2aCommandReply'];
    expect(helpMeta.command).toBe('help');
    expect(helpMeta.data.commands.map((c: { name: string }) => c.name)).toContain('model');

    from = bridge.notifications.length;
    expect((await prompt(bridge, sessionId, '/model offline/echo')).stopReason).toBe('end_turn');
    const model = chunksOf(updatesOf(bridge, sessionId, from));
    expect(agentText(model)).toMatch(/^\*\*\/model\*\*\n\n.*offline\/echo/);
    expect((model[0]!._meta as Record<string, any>)['a2aCommandReply'].command).toBe('model');
  });
});

describe('prompts', () => {
  it('an ordinary prompt streams as agent message chunks of one message', async () => {
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    expect((await prompt(bridge, sessionId, 'Hello there')).stopReason).toBe('end_turn');
    const chunks = chunksOf(updatesOf(bridge, sessionId, from));
    expect(chunks.length).toBeGreaterThan(5);
    expect(
      new Set(
        chunks.map((chunk) => chunk.sessionUpdate === 'agent_message_chunk' && chunk.messageId),
      ).size,
    ).toBe(1);
    expect(agentText(chunks)).toBe(
      'This is the offline model (offline/echo); no real model was called. I got 1 message and no system prompt. You said: Hello there',
    );
  });

  it('session/cancel mid-answer stops it with /stop: cancelled, the answer so far kept, and the next answer sees it', async () => {
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    const pending = prompt(bridge, sessionId, LONG);
    await until(
      () => chunksOf(updatesOf(bridge, sessionId, from)).length >= 8,
      'the answer to start',
    );
    await bridge.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await pending).stopReason).toBe('cancelled');
    const stopped = agentText(chunksOf(updatesOf(bridge, sessionId, from)));
    expect(stopped).toMatch(/^This is the offline model .*\n\n\*\(stopped\)\*$/s);
    expect(stopped).not.toContain('word79');

    const next = bridge.notifications.length;
    expect((await prompt(bridge, sessionId, 'and now?')).stopReason).toBe('end_turn');
    // The model got the first prompt, the stopped answer and this one: the conversation went on.
    expect(agentText(chunksOf(updatesOf(bridge, sessionId, next)))).toContain(
      'I got 3 messages and no system prompt. You said: and now?',
    );
  });
});

describe('session/load', () => {
  it(
    'replays a task: the user’s messages, the answers, and command replies marked as such',
    async () => {
      const sessionId = await newSession(bridge);
      await prompt(bridge, sessionId, 'remember the lighthouse');
      await prompt(bridge, sessionId, '/model offline/echo');
      const taskId = taskIdOf(bridge, sessionId)!;
      expect(taskId).toBeDefined();

      const editor = await startEditor();
      // The editor finds the task among the sessions it can load.
      const { sessions } = await editor.connection.agent.request(methods.agent.session.list, {
        cwd: '/tmp',
      });
      expect(sessions.map((session) => session.sessionId)).toContain(taskId);
      await editor.connection.agent.request(methods.agent.session.load, {
        sessionId: taskId,
        cwd: '/tmp',
        mcpServers: [],
      });
      const replay = updatesOf(editor, taskId);
      const said = replay.flatMap((update) =>
        (update.sessionUpdate === 'user_message_chunk' ||
          update.sessionUpdate === 'agent_message_chunk') &&
        update.content.type === 'text'
          ? [[update.sessionUpdate, update.content.text]]
          : [],
      );
      expect(said).toEqual([
        ['user_message_chunk', 'remember the lighthouse'],
        ['agent_message_chunk', expect.stringContaining('You said: remember the lighthouse')],
        ['user_message_chunk', '/model offline/echo'],
        ['agent_message_chunk', expect.stringMatching(/^\*\*\/model\*\*\n\n/)],
      ]);
      await until(() => commandNames(editor, taskId)?.includes('help'), 'the command list');
      // The loaded session goes on in the same task.
      const from = editor.notifications.length;
      await prompt(editor, taskId, 'what did I ask?');
      expect(agentText(updatesOf(editor, taskId, from))).toContain('I got 3 messages');
    },
    SECOND_BRIDGE_MS,
  );

  it(
    'joins a running answer from the answer so far and follows it to the end',
    async () => {
      const editor = await startEditor();
      const sessionId = await newSession(bridge);
      await prompt(bridge, sessionId, '/model openai/gpt-test');
      // The answer goes on, a word every 100 ms, until the editor has joined it.
      model.setReply('the answer so far');
      let joined!: () => void;
      model.streamUntil(new Promise<void>((resolve) => (joined = resolve)));
      const from = bridge.notifications.length;
      const pending = prompt(bridge, sessionId, 'a long answer, please');
      await until(
        () => agentText(chunksOf(updatesOf(bridge, sessionId, from))).includes('so far'),
        'the answer to start',
      );
      const taskId = taskIdOf(bridge, sessionId)!;
      try {
        await editor.connection.agent.request(methods.agent.session.load, {
          sessionId: taskId,
          cwd: '/tmp',
          mcpServers: [],
        });
        const atLoad = agentText(updatesOf(editor, taskId));
        expect(atLoad).toContain('the answer so far');
        // It joined mid-answer: the answer goes on in the editor after the load.
        await until(
          () => agentText(updatesOf(editor, taskId)).length > atLoad.length,
          'the answer to go on after the load',
        );
        joined();
        expect((await pending).stopReason).toBe('end_turn');
        const whole = agentText(chunksOf(updatesOf(bridge, sessionId, from)));
        expect(whole).toMatch(/^the answer so far( more)+$/);
        await until(
          () => agentText(updatesOf(editor, taskId)).endsWith(whole),
          'the joined answer to end',
        );
      } finally {
        joined();
      }
    },
    SECOND_BRIDGE_MS,
  );
});

describe('a harness with API keys', () => {
  it(
    'gets the key from A2A_API_KEY and answers; a wrong key is an ACP auth error',
    async () => {
      const keyed = await startHarness({
        apiKeys: new ApiKeys(parseApiKeyList('alice=sk-alice-0123456789abcdef')),
      });
      const command = { cwd: harnessDir, argv: [bundledHarnessCli(), 'acp'] };
      const right = await startBridge(keyed.url, {
        command,
        env: { A2A_API_KEY: 'sk-alice-0123456789abcdef' },
      });
      const wrong = await startBridge(keyed.url, { command, args: ['--api-key', 'sk-wrong'] });
      try {
        const sessionId = await newSession(right);
        const from = right.notifications.length;
        expect((await prompt(right, sessionId, '/help')).stopReason).toBe('end_turn');
        expect(agentText(updatesOf(right, sessionId, from))).toMatch(/^\*\*\/help\*\*/);
        const refused = await (async () => {
          try {
            await prompt(wrong, await newSession(wrong), 'hi');
          } catch (error) {
            return error as { code: number; message: string };
          }
          return undefined;
        })();
        expect(refused?.code).toBe(-32000);
        expect(refused?.message).not.toContain('sk-wrong');
      } finally {
        await right.close();
        await wrong.close();
        await keyed.stop();
      }
    },
    SECOND_BRIDGE_MS,
  );
});

it('writes nothing but protocol on stdout', () => {
  expect(bridge.strayLines).toEqual([]);
});
