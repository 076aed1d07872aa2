/**
 * `a2a-ai-provider`, the AI SDK's community A2A provider, used as its README
 * shows, against the real harness over HTTP. It sends a `contextId` and never
 * a `taskId`, so each call is a new task: SEMANTICS §10 makes two calls in one
 * context one conversation.
 */
import { a2a } from 'a2a-ai-provider';
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

let harness: TestHarness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

const model = () => a2a(`${harness.url}/.well-known/agent-card.json`);
const inContext = (contextId: string) => ({ a2a: { contextId } });

describe('a2a-ai-provider', () => {
  it('generateText on an ordinary prompt gets the model answer', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'What is love?',
      providerOptions: inContext(crypto.randomUUID()),
    });
    expect(result.text).toContain('You said: What is love?');
  });

  it('streamText on an ordinary prompt streams the model answer', async () => {
    const result = streamText({
      model: model(),
      prompt: 'Stream this, please.',
      providerOptions: inContext(crypto.randomUUID()),
    });
    let text = '';
    for await (const chunk of result.textStream) text += chunk;
    expect(text).toContain('You said: Stream this, please.');
  });

  it('two calls in one context remember each other', async () => {
    const contextId = crypto.randomUUID();
    const first = await generateText({
      model: model(),
      prompt: 'My name is Ada.',
      providerOptions: inContext(contextId),
    });
    expect(first.text).toContain('I got 1 message');
    const second = await generateText({
      model: model(),
      prompt: 'What is my name?',
      providerOptions: inContext(contextId),
    });
    expect(second.text).toContain('I got 3 messages');
  });
});

describe('a2a-ai-provider and commands', () => {
  it('generateText of /help gets the reply text (streamText does not: it reads no status messages)', async () => {
    const result = await generateText({
      model: model(),
      prompt: '/help',
      providerOptions: inContext(crypto.randomUUID()),
    });
    expect(result.text).toMatch(/^Commands:\n\/help/);
  });

  it('/system sent in a context applies to the calls that follow in it', async () => {
    const contextId = crypto.randomUUID();
    await generateText({ model: model(), prompt: 'Hello.', providerOptions: inContext(contextId) });
    const set = await generateText({
      model: model(),
      prompt: '/system Be brief.',
      providerOptions: inContext(contextId),
    });
    expect(set.text).toContain('Be brief.');
    const next = await generateText({
      model: model(),
      prompt: 'Still brief?',
      providerOptions: inContext(contextId),
    });
    expect(next.text).toContain('I got 3 messages and a system prompt');
  });
});
