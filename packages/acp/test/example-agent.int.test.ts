/**
 * The bridge in front of the library's example agent (/help, /echo, and a
 * /spawn that starts a sub-task), driven as an editor drives it: a child
 * process on stdio, from the ACP SDK's client side.
 */
import { methods, type SessionUpdate } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentText,
  newSession,
  prompt,
  startBridge,
  until,
  updatesOf,
  type BridgeProcess,
} from 'a2a-testing/acp-bridge';
import {
  HELD_MS,
  HELD_TEXT,
  startExampleAgent,
  type ExampleAgent,
} from './support/example-agent.js';

let agent: ExampleAgent;
let bridge: BridgeProcess;

beforeAll(async () => {
  agent = await startExampleAgent();
  bridge = await startBridge(agent.url);
});

afterAll(async () => {
  await bridge?.close();
  await agent?.close();
});

const replyMeta = (update: SessionUpdate | undefined) =>
  (update?._meta as Record<string, any> | undefined)?.['a2aCommandReply'];

describe('the example agent through the bridge', () => {
  it('lists the card’s commands after session/new, each argument hint as the input hint', async () => {
    const sessionId = await newSession(bridge);
    const list = await until(
      () =>
        updatesOf(bridge, sessionId).find(
          (update) => update.sessionUpdate === 'available_commands_update',
        ),
      'the command list',
    );
    expect(list).toEqual({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { name: 'help', description: 'List the commands' },
        { name: 'echo', description: 'Repeat the arguments', input: { hint: '<text>' } },
        { name: 'spawn', description: 'Runs a prompt as a sub-task', input: { hint: '<prompt>' } },
      ],
    });
  });

  it('runs /echo as a command: one message headed with its name, its data part in _meta', async () => {
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    const { stopReason } = await prompt(bridge, sessionId, '/echo hi there');
    expect(stopReason).toBe('end_turn');
    const chunks = updatesOf(bridge, sessionId, from).filter(
      (update) => update.sessionUpdate === 'agent_message_chunk',
    );
    expect(chunks).toHaveLength(1);
    expect(agentText(chunks)).toBe('**/echo**\n\nhi there');
    expect(replyMeta(chunks[0])).toEqual({
      command: 'echo',
      data: { echoed: 'hi there' },
      taskRef: null,
    });
  });

  it('sends an ordinary prompt as a message and ends the turn with its answer', async () => {
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    const { stopReason } = await prompt(bridge, sessionId, 'hello');
    expect(stopReason).toBe('end_turn');
    expect(agentText(updatesOf(bridge, sessionId, from))).toBe('You said: hello');
  });

  it('joins text blocks, so a command split over two blocks is still the command', async () => {
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    await bridge.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: '/echo' },
        { type: 'text', text: 'joined' },
      ],
    });
    expect(agentText(updatesOf(bridge, sessionId, from))).toBe('**/echo**\n\njoined');
  });

  it('a prompt with other content goes as an ordinary message, even when its text is a command', async () => {
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    await bridge.connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [
        { type: 'text', text: '/echo x' },
        { type: 'resource_link', uri: 'file:///tmp/notes.md', name: 'notes.md' },
      ],
    });
    // The example agent echoes the text parts of an ordinary message.
    expect(agentText(updatesOf(bridge, sessionId, from))).toBe('You said: /echo x');
  });

  it('a reply with task_ref names the sub-task and says how to open it', async () => {
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    await prompt(bridge, sessionId, '/spawn look around');
    const chunks = updatesOf(bridge, sessionId, from).filter(
      (update) => update.sessionUpdate === 'agent_message_chunk',
    );
    const taskRef = replyMeta(chunks[0])?.taskRef as string;
    expect(taskRef).toMatch(/[0-9a-f-]{36}/);
    const text = agentText(chunks);
    expect(text).toContain(`Sub-task \`${taskRef}\``);
    expect(text).toContain(`session/load`);
    expect(text).toContain(`a2a-chat ${agent.url} --task ${taskRef}`);
  });

  it('session/cancel without /stop on the card: CancelTask, stop reason cancelled, and the conversation goes on', async () => {
    const sessionId = await newSession(bridge);
    await prompt(bridge, sessionId, 'first');
    const from = bridge.notifications.length;
    const pending = prompt(bridge, sessionId, HELD_TEXT);
    // Its answer is held back: cancel well inside that.
    await new Promise((resolve) => setTimeout(resolve, HELD_MS / 3));
    await bridge.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await pending).stopReason).toBe('cancelled');
    expect(agentText(updatesOf(bridge, sessionId, from))).not.toContain(HELD_TEXT);
    const next = bridge.notifications.length;
    expect((await prompt(bridge, sessionId, 'after the cancel')).stopReason).toBe('end_turn');
    expect(agentText(updatesOf(bridge, sessionId, next))).toBe('You said: after the cancel');
  });

  it('session/load of a task the agent does not have fails with -32002, naming the agent', async () => {
    const error = (await bridge.connection.agent
      .request(methods.agent.session.load, {
        sessionId: '00000000-0000-4000-8000-000000000000',
        cwd: '/tmp',
        mcpServers: [],
      })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      )) as { code: number; message: string } | undefined;
    expect(error?.code).toBe(-32002);
    expect(error?.message).toContain(`the agent at ${agent.url} has no such task`);
  });

  it('writes nothing but protocol on stdout', () => {
    expect(bridge.strayLines).toEqual([]);
  });
});
