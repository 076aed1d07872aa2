/**
 * A model endpoint that hangs, stalls, trickles, answers HTML, cuts its stream
 * or never stops: each turn still ends, in input-required, with a note or a
 * mark that says what happened (a real HTTP server speaking the OpenAI API).
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { SETTINGS_KEY } from '../src/settings.js';
import { CUT_NOTES } from '../src/turns/turn-endings.js';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';

let fake: FakeOpenAI;
let harness: TestHarness;

const env = () => ({ OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl });

/**
 * Limits a slow machine cannot reach by accident. A timeout test tightens only
 * the limit it is about, so a busy machine cannot end its turn at another one
 * (a trickle paused past a tight idle limit, a first chunk late past a tight
 * first-byte limit), and the other tests never meet a tight limit at all.
 */
const LOOSE = { firstByteMs: 60_000, idleMs: 60_000, totalMs: 120_000 };

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test'], apiKey: 'sk-test' });
  harness = await startHarness({ env: env(), config: { turns: { ...LOOSE, answerChars: 50 } } });
});
afterEach(() => fake.misbehave(undefined));
afterAll(async () => {
  await harness.stop();
  await fake.close();
});

const textOf = (message: any): string =>
  (message?.parts ?? []).map((part: any) => part.text ?? '').join('');

async function turn(text: string, on: TestHarness = harness) {
  const { body } = await rpc(on.url, 'SendMessage', { message: userText(text) });
  const task = body.result.task;
  expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
  return task.status.message;
}

/** One turn on a harness of its own whose turn limits are `limits` over LOOSE. */
async function turnWithLimits(text: string, limits: Partial<typeof LOOSE>) {
  const own = await startHarness({ env: env(), config: { turns: { ...LOOSE, ...limits } } });
  try {
    return await turn(text, own);
  } finally {
    await own.stop();
  }
}

it('a model that never answers ends the turn at the first-byte timeout, with a note saying the limit in words', async () => {
  fake.misbehave('silent');
  const note = await turnWithLimits('hello?', { firstByteMs: 400 });
  expect(textOf(note)).toContain('sent nothing for 400 ms');
  // The limit in a person's words: the config key is for the docs.
  expect(textOf(note)).toContain('a model may take at most 400 ms to start its answer.');
  expect(textOf(note)).not.toContain('firstByteMs');
  expect(note.metadata?.[SETTINGS_KEY]).toEqual({ note: 'model-error' });
});

it('a model that stalls after its first words ends at the idle timeout', async () => {
  fake.misbehave('stall-after-first');
  const note = await turnWithLimits('go on', { idleMs: 400 });
  expect(textOf(note)).toContain('stopped sending for 400 ms');
  // The limit in a person's words: the config key is for the docs.
  expect(textOf(note)).toContain('a model may pause at most 400 ms within an answer.');
  expect(textOf(note)).not.toContain('idleMs');
});

it('a model that trickles a byte now and then ends at the total timeout', async () => {
  fake.misbehave('trickle');
  fake.setReply('unused');
  const note = await turnWithLimits('slowly', { totalMs: 2500 });
  expect(textOf(note)).toContain('still answering after 2500 ms');
  // The limit in a person's words: the config key is for the docs.
  expect(textOf(note)).toContain('an answer may take at most 2500 ms.');
  expect(textOf(note)).not.toContain('totalMs');
});

it('an HTML page instead of a stream is a model error, not an empty answer', async () => {
  fake.misbehave('html');
  const note = await turn('hi');
  expect(note.metadata?.[SETTINGS_KEY]).toEqual({ note: 'model-error' });
  expect(textOf(note)).toContain('model openai/gpt-test');
  expect(textOf(note)).not.toContain('(the model returned no text)');
});

it('a stream cut off before its end is kept, marked incomplete', async () => {
  fake.misbehave('cut');
  fake.setReply('part of an answer');
  const answer = await turn('tell me');
  expect(textOf(answer)).toBe(`part of an answer\n\n${CUT_NOTES.incomplete}`);
  expect(answer.metadata?.[SETTINGS_KEY]).toEqual({ cut: 'incomplete' });
});

it('an answer longer than turns.answerChars is cut there, and says so', async () => {
  fake.setReply('word '.repeat(1000));
  const answer = await turn('talk a lot');
  expect(textOf(answer)).toBe(`${'word '.repeat(10)}\n\n${CUT_NOTES['answer-limit']}`);
  expect(answer.metadata?.[SETTINGS_KEY]).toEqual({ cut: 'answer-limit' });
});

it('a well-behaved model after all that still answers whole', async () => {
  fake.setReply('all good');
  const answer = await turn('and now?');
  expect(textOf(answer)).toBe('all good');
  expect(answer.metadata?.[SETTINGS_KEY]).toBeUndefined();
});
