/**
 * The bridge in front of an A2A agent on the bare SDK, without the commands
 * extension: plain prompts still work; the API key goes only where the card
 * asks for it; failures reach the editor as ACP errors; a lost stream is
 * followed again, and an agent that goes away mid-answer is reported.
 */
import type { RequestError } from '@agentclientprotocol/sdk';
import { methods } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
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
import { startCuttingProxy, type CuttingProxy } from './support/cutting-proxy.js';
import { startPlainAgent, type PlainAgent } from 'a2a-testing/plain-agent';

const running: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const thing of running.splice(0).reverse()) await thing.close();
});

async function agentAnd(
  options: Parameters<typeof startPlainAgent>[0] = {},
  bridgeOptions: Parameters<typeof startBridge>[1] = {},
): Promise<{ agent: PlainAgent; bridge: BridgeProcess }> {
  const agent = await startPlainAgent(options);
  running.push(agent);
  const bridge = await startBridge(agent.url, bridgeOptions);
  running.push(bridge);
  return { agent, bridge };
}

/** The error a request failed with. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await request.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeDefined();
  return error as RequestError;
}

describe('an agent without the commands extension', () => {
  it('gets an empty command list, and prompts stream as usual; /help is an ordinary message', async () => {
    const { bridge } = await agentAnd({ wordDelayMs: 20 });
    const sessionId = await newSession(bridge);
    expect(await until(() => commandNames(bridge, sessionId), 'the command list')).toEqual([]);
    let from = bridge.notifications.length;
    expect((await prompt(bridge, sessionId, 'hello over there')).stopReason).toBe('end_turn');
    const chunks = updatesOf(bridge, sessionId, from).filter(
      (update) => update.sessionUpdate === 'agent_message_chunk',
    );
    expect(chunks.length).toBeGreaterThan(2);
    expect(agentText(chunks)).toBe('You said: hello over there');
    from = bridge.notifications.length;
    await prompt(bridge, sessionId, '/help');
    expect(agentText(updatesOf(bridge, sessionId, from))).toBe('You said: /help');
    expect(bridge.strayLines).toEqual([]);
  });
});

describe('session/cancel on an agent without /stop', () => {
  it('cancels the task: stop reason cancelled, the words so far stay, the next prompt starts the next task', async () => {
    const { bridge } = await agentAnd({ wordDelayMs: 100 });
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    const pending = prompt(bridge, sessionId, 'one two three four five six seven eight nine ten');
    await until(() => agentText(updatesOf(bridge, sessionId, from)).includes('two '), 'some words');
    await bridge.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await pending).stopReason).toBe('cancelled');
    const kept = agentText(updatesOf(bridge, sessionId, from));
    expect(kept).toMatch(/^You said: one two /);
    expect(kept).not.toContain('ten');
    const next = bridge.notifications.length;
    expect((await prompt(bridge, sessionId, 'again')).stopReason).toBe('end_turn');
    expect(agentText(updatesOf(bridge, sessionId, next))).toBe('You said: again');
  });
});

describe('the API key', () => {
  it('is not sent to an agent whose card does not ask for one', async () => {
    const { agent, bridge } = await agentAnd({}, { env: { A2A_API_KEY: 'sk-unasked' } });
    const sessionId = await newSession(bridge);
    expect((await prompt(bridge, sessionId, 'hi')).stopReason).toBe('end_turn');
    expect(agent.requests.some((request) => request.path === '/a2a/jsonrpc')).toBe(true);
    expect(agent.requests.map((request) => request.headers.authorization)).toEqual(
      agent.requests.map(() => undefined),
    );
  });

  it('is sent to an agent whose card asks for one, on its A2A calls (the card is read without it)', async () => {
    const { agent, bridge } = await agentAnd(
      { apiKey: 'sk-right' },
      { env: { A2A_API_KEY: 'sk-right' } },
    );
    const sessionId = await newSession(bridge);
    expect((await prompt(bridge, sessionId, 'hi')).stopReason).toBe('end_turn');
    const calls = agent.requests.filter((request) => request.path === '/a2a/jsonrpc');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.headers.authorization === 'Bearer sk-right')).toBe(true);
    const cards = agent.requests.filter((request) => request.path !== '/a2a/jsonrpc');
    expect(cards.every((card) => card.headers.authorization === undefined)).toBe(true);
  });

  it('refused: the prompt fails with an ACP auth error that does not show the key', async () => {
    const { bridge } = await agentAnd({ apiKey: 'sk-right' }, { args: ['--api-key', 'sk-wrong'] });
    const sessionId = await newSession(bridge);
    const error = await failure(prompt(bridge, sessionId, 'hi'));
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/refused the API key/);
    expect(error.message).not.toContain('sk-wrong');
  });

  it('needed and missing: session/new fails with an ACP auth error saying how to give one', async () => {
    const { bridge } = await agentAnd({ apiKey: 'sk-right' });
    const error = await failure(newSession(bridge));
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/needs an API key: set A2A_API_KEY or pass --api-key/);
  });
});

describe('failures', () => {
  it('an agent that cannot be reached: session/new fails with an ACP error naming it, and the bridge stays up', async () => {
    const agent = await startPlainAgent();
    await agent.close();
    const bridge = await startBridge(agent.url);
    running.push(bridge);
    const error = await failure(newSession(bridge));
    expect(error.code).toBe(-32603);
    expect(error.message).toContain(`cannot reach the A2A agent at ${agent.url}`);
    expect(bridge.child.exitCode).toBeNull();
    // Asked again, it tries again: still the same clear error, no crash.
    expect((await failure(newSession(bridge))).message).toContain('cannot reach');
  });

  it('a stream lost mid-answer is followed again, and the answer arrives whole', async () => {
    const proxy: CuttingProxy = await startCuttingProxy();
    running.push(proxy);
    const agent = await startPlainAgent({ wordDelayMs: 60, publicUrl: proxy.url });
    running.push(agent);
    proxy.target(Number(new URL(agent.url).port));
    const bridge = await startBridge(proxy.url);
    running.push(bridge);
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const pending = prompt(bridge, sessionId, words);
    await until(() => agentText(updatesOf(bridge, sessionId, from)).includes('w3 '), 'some words');
    proxy.cut();
    expect((await pending).stopReason).toBe('end_turn');
    expect(agentText(updatesOf(bridge, sessionId, from))).toBe(`You said: ${words}`);
    expect(bridge.stderr()).toContain('following task');
  });

  it('an agent that goes away mid-answer is reported as an ACP error, not left hanging', async () => {
    const { agent, bridge } = await agentAnd(
      { wordDelayMs: 100 },
      { args: ['--give-up-after', '1500'] },
    );
    const sessionId = await newSession(bridge);
    const from = bridge.notifications.length;
    const pending = failure(prompt(bridge, sessionId, 'a b c d e f g h i j k l m n o p'));
    await until(() => agentText(updatesOf(bridge, sessionId, from)).includes('b '), 'some words');
    await agent.close();
    const error = await pending;
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(/stopped answering mid-answer/);
    // The bridge goes on: the next prompt gets a clear error at once, not a hang.
    const again = await newSession(bridge);
    expect((await failure(prompt(bridge, again, 'hi'))).message).toContain('cannot reach');
  });
});

it('refuses an unknown session with an ACP error', async () => {
  const { bridge } = await agentAnd();
  const error = await failure(
    bridge.connection.agent.request(methods.agent.session.prompt, {
      sessionId: 'no-such-session',
      prompt: [{ type: 'text', text: 'hi' }],
    }),
  );
  expect(error.code).toBe(-32002);
});
