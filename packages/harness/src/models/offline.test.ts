import { generateText, streamText } from 'ai';
import type { ModelMessage } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOfflineModel, offlineReply, wordDeltas } from './offline.js';
import { streamModelTurn } from './stream-turn.js';

const conversation: ModelMessage[] = [
  { role: 'user', content: 'hello there' },
  { role: 'assistant', content: 'hi' },
  { role: 'user', content: 'what is the\n\nweather like?' },
];

describe('offline model', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a v3 language model with the offline/echo id', () => {
    const model = createOfflineModel();
    expect(model.specificationVersion).toBe('v3');
    expect(`${model.provider}/${model.modelId}`).toBe('offline/echo');
  });

  it('streams several word deltas through streamText and echoes count and last user text', async () => {
    const result = streamText({
      model: createOfflineModel(),
      system: 'Be brief.',
      messages: conversation,
      maxRetries: 0,
    });
    const deltas: string[] = [];
    let usage: { inputTokens?: number; outputTokens?: number } | undefined;
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') deltas.push(part.text);
      if (part.type === 'finish') usage = part.totalUsage;
      if (part.type === 'error') throw part.error;
    }
    const text = deltas.join('');
    expect(text).toBe(
      'This is the offline model (offline/echo); no real model was called. ' +
        'I got 3 messages and a system prompt. You said: what is the weather like?',
    );
    expect(text).not.toContain('\n');
    expect(deltas.length).toBeGreaterThan(10);
    for (const delta of deltas) expect(delta.trim().split(/\s+/)).toHaveLength(1);
    // Words are tokens: "Be brief." + "hello there" + "hi" + "what is the weather like?"
    expect(usage).toMatchObject({ inputTokens: 10, outputTokens: deltas.length });
  });

  it('says when there is no system prompt and counts one message', async () => {
    const { text, usage } = await generateText({
      model: createOfflineModel(),
      messages: [{ role: 'user', content: 'ping' }],
      maxRetries: 0,
    });
    expect(text).toContain('I got 1 message and no system prompt. You said: ping');
    expect(usage.inputTokens).toBe(1);
    expect(usage.outputTokens).toBe(wordDeltas(text).length);
  });

  it('is deterministic', () => {
    const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'x' }] }];
    expect(offlineReply(prompt)).toBe(offlineReply(prompt));
  });

  it('waits latencyMs before each token, and not before the opening parts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { stream } = await createOfflineModel('echo', { latencyMs: 1000 }).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'one two' }] }],
    });
    const reader = stream.getReader();
    const opening: string[] = [];
    for (let i = 0; i < 3; i++) opening.push((await reader.read()).value?.type ?? 'end');
    expect(opening).toEqual(['stream-start', 'response-metadata', 'text-start']);
    for (let token = 0; token < 2; token++) {
      let delta: string | undefined;
      const read = reader.read().then(({ value }) => {
        delta = value?.type;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(delta).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await read;
      expect(delta).toBe('text-delta');
    }
    await reader.cancel();
  });

  it('stops at once with an AbortError when the signal aborts, with no wait left behind', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const controller = new AbortController();
    const deltas: string[] = [];
    const turn = streamModelTurn({
      model: createOfflineModel('echo', { latencyMs: 1000 }),
      modelId: 'offline/echo',
      messages: [{ role: 'user', content: 'a long answer please' }],
      signal: controller.signal,
      onDelta: (d) => {
        deltas.push(d);
        if (deltas.length === 2) controller.abort();
      },
    });
    const settled = turn.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2000);
    // No more model time passes: the abort alone ends the turn.
    expect(await settled).toMatchObject({ name: 'AbortError' });
    expect(deltas).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects doStream at once for an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = createOfflineModel();
    await expect(
      model.doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        abortSignal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('errors its own stream on abort, without streamText around it', async () => {
    const controller = new AbortController();
    const model = createOfflineModel('echo', { latencyMs: 20 });
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    const seen: string[] = [];
    const read = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        seen.push(value.type);
        if (value.type === 'text-delta') controller.abort();
      }
    })();
    await expect(read).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta']);
  });
});
