/**
 * `GET /metrics` over HTTP: Prometheus text from prom-client, behind the API
 * keys unless `metricsPublic`, with figures that move as commands and turns run.
 */
import { CommandError } from 'a2a-commands';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { freshPostgresDatabase } from 'a2a-testing/databases';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, rpcStream, resultOf, userText, waitFor } from 'a2a-testing/http';
import { sample, scrape } from 'a2a-testing/metrics';

const ALICE = 'alice-key-0123456789abcdef';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const as = { headers: { authorization: `Bearer ${ALICE}` } };
/** Each word of an offline answer takes this long: long messages make slow turns. */
const WORD_MS = 40;
const slowText = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(' ');

let fake: FakeOpenAI;
let harness: TestHarness;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['gpt-test'], apiKey: 'sk-test-secret' });
  harness = await startHarness({
    config: { defaultModel: 'offline/echo', offline: { latencyMs: WORD_MS } },
    env: { OPENAI_API_KEY: 'sk-test-secret', OPENAI_BASE_URL: fake.baseUrl },
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE}`)),
    metricsToken: METRICS_TOKEN,
  });
});
afterAll(async () => {
  await harness.stop();
  await fake.close();
});

const metrics = () => scrape(harness.url, METRICS_TOKEN);
const send = (text: string, ids: { taskId?: string } = {}, returnImmediately = false) =>
  rpc(
    harness.url,
    'SendMessage',
    { message: userText(text, ids), configuration: { returnImmediately } },
    as,
  );

describe('access', () => {
  it("needs the metrics token: no key, a wrong one, and a principal's API key are refused", async () => {
    const refused = await fetch(`${harness.url}/metrics`);
    expect(refused.status).toBe(401);
    const wrong = await fetch(`${harness.url}/metrics`, {
      headers: { authorization: 'Bearer not-a-key-0123456789' },
    });
    expect(wrong.status).toBe(401);
    // Counters cover every caller: a principal's own key does not read them.
    const principal = await fetch(`${harness.url}/metrics`, as);
    expect(principal.status).toBe(401);
    // The shape of the harness's other own refusals (the completion route's): a code and a message.
    expect(await principal.json()).toEqual({
      error: { code: 'unauthenticated', message: expect.stringContaining('metrics token') },
    });
    const allowed = await fetch(`${harness.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await allowed.text();
    expect(text).toContain('# TYPE a2a_harness_commands_total counter');
    expect(text).toContain('# TYPE a2a_harness_open_streams gauge');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('is served without a key when made public', async () => {
    const open = await startHarness({
      apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE}`)),
      metricsPublic: true,
    });
    try {
      const response = await fetch(`${open.url}/metrics`);
      expect(response.status).toBe(200);
      // Only /metrics: the A2A routes still need a key.
      expect((await rpc(open.url, 'GetTask', { id: 'x' })).status).toBe(401);
    } finally {
      await open.stop();
    }
  });

  it('with API keys and neither a token nor --metrics-public, nobody reads it', async () => {
    const closed = await startHarness({ apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE}`)) });
    try {
      expect((await fetch(`${closed.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${closed.url}/metrics`, as)).status).toBe(401);
    } finally {
      await closed.stop();
    }
  });
});

describe('commands', () => {
  it('a command moves its counter and its latency histogram, by name and outcome', async () => {
    const before = await metrics();
    const { body } = await send('/title Metrics task');
    expect(body.result.task.status.message.parts[0].text).toContain('Metrics task');
    await send('/title Again', { taskId: body.result.task.id });
    const refused = await send('/title Nowhere', { taskId: 'no-such-task' });
    expect(refused.body.error).toBeDefined();
    const after = await metrics();

    const replied = { command: 'title', outcome: 'replied' };
    expect(sample(after, 'a2a_harness_commands_total', replied)).toBe(
      sample(before, 'a2a_harness_commands_total', replied) + 2,
    );
    const refusedLabels = { command: 'title', outcome: 'refused' };
    expect(sample(after, 'a2a_harness_commands_total', refusedLabels)).toBe(
      sample(before, 'a2a_harness_commands_total', refusedLabels) + 1,
    );
    const count = 'a2a_harness_command_duration_seconds_count';
    expect(sample(after, count, { command: 'title' })).toBe(
      sample(before, count, { command: 'title' }) + 3,
    );
    const sum = 'a2a_harness_command_duration_seconds_sum';
    expect(sample(after, sum, { command: 'title' })).toBeGreaterThan(
      sample(before, sum, { command: 'title' }),
    );
    // Every command write went through the store's one write path.
    expect(sample(after, 'a2a_harness_db_write_seconds_count')).toBeGreaterThanOrEqual(
      sample(before, 'a2a_harness_db_write_seconds_count') + 2,
    );
  });

  it('a streamed command is counted once, when its stream ends', async () => {
    const replied = { command: 'help', outcome: 'replied' };
    const before = sample(await metrics(), 'a2a_harness_commands_total', replied);
    const { events } = await rpcStream(
      harness.url,
      'SendStreamingMessage',
      { message: userText('/help') },
      as,
    );
    const streamed = await events.rest();
    expect(resultOf(streamed.at(-1)).statusUpdate.metadata.command).toBe('help');
    expect(sample(await metrics(), 'a2a_harness_commands_total', replied)).toBe(before + 1);
  });

  it('a handler that throws counts as a failure; a CommandError is an ordinary reply', async () => {
    const { registry } = harness.harness;
    registry.register({
      name: 'boom',
      description: 'throws',
      run: () => {
        throw new Error('kaboom');
      },
    });
    registry.register({
      name: 'refuse',
      description: 'says no',
      run: () => {
        throw new CommandError('no, thank you');
      },
    });
    const failed = await send('/boom');
    expect(failed.body.result.task.status.message.parts[0].text).toContain('/boom failed');
    const refusedByCommand = await send('/refuse');
    expect(refusedByCommand.body.result.task.status.message.parts[0].text).toBe('no, thank you');
    const after = await metrics();
    expect(sample(after, 'a2a_harness_command_failures_total', { command: 'boom' })).toBe(1);
    expect(sample(after, 'a2a_harness_command_failures_total', { command: 'refuse' })).toBe(0);
    for (const command of ['boom', 'refuse']) {
      expect(sample(after, 'a2a_harness_commands_total', { command, outcome: 'replied' })).toBe(1);
    }
  });
});

describe('turns', () => {
  it('an answered turn counts its ending and its first token', async () => {
    const before = await metrics();
    const { body } = await send('hello metrics');
    expect(body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const after = await metrics();
    expect(sample(after, 'a2a_harness_turns_total', { ending: 'answered' })).toBe(
      sample(before, 'a2a_harness_turns_total', { ending: 'answered' }) + 1,
    );
    expect(sample(after, 'a2a_harness_turn_first_token_seconds_count')).toBe(
      sample(before, 'a2a_harness_turn_first_token_seconds_count') + 1,
    );
  });

  it('a model error counts its ending and its provider', async () => {
    const { body } = await send('/model openai/gpt-test');
    const taskId = body.result.task.id as string;
    const before = await metrics();
    fake.failNext(1, 401, 'bad key');
    const failed = await send('this call fails', { taskId });
    expect(failed.body.result.task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const after = await metrics();
    expect(sample(after, 'a2a_harness_turns_total', { ending: 'model_error' })).toBe(
      sample(before, 'a2a_harness_turns_total', { ending: 'model_error' }) + 1,
    );
    expect(sample(after, 'a2a_harness_model_errors_total', { provider: 'openai' })).toBe(
      sample(before, 'a2a_harness_model_errors_total', { provider: 'openai' }) + 1,
    );
  });

  it('queued turns show in the queue depth, and a canceled turn counts as canceled', async () => {
    const before = await metrics();
    const { body } = await send(slowText(60), {}, true);
    const taskId = body.result.task.id as string;
    await send('second', { taskId }, true);
    await send('third', { taskId }, true);
    expect(sample(await metrics(), 'a2a_harness_turn_queue_depth')).toBe(2);

    const canceled = await rpc(harness.url, 'CancelTask', { id: taskId }, as);
    expect(canceled.body.result.status.state).toBe('TASK_STATE_CANCELED');
    const after = await waitFor(async () => {
      const text = await metrics();
      const moved =
        sample(text, 'a2a_harness_turns_total', { ending: 'canceled' }) >
        sample(before, 'a2a_harness_turns_total', { ending: 'canceled' });
      return moved ? text : undefined;
    }, 'the canceled turn to be counted');
    expect(sample(after, 'a2a_harness_turns_total', { ending: 'canceled' })).toBe(
      sample(before, 'a2a_harness_turns_total', { ending: 'canceled' }) + 1,
    );
    expect(sample(after, 'a2a_harness_turn_queue_depth')).toBe(0);
  });
});

describe('streams', () => {
  it('the open-stream gauge counts a stream while it is open', async () => {
    expect(sample(await metrics(), 'a2a_harness_open_streams')).toBe(0);
    const { events } = await rpcStream(
      harness.url,
      'SendStreamingMessage',
      { message: userText(slowText(20)) },
      as,
    );
    expect(resultOf(await events.next()).task).toBeDefined();
    expect(sample(await metrics(), 'a2a_harness_open_streams')).toBe(1);
    const rest = await events.rest();
    expect(resultOf(rest.at(-1)).statusUpdate.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(sample(await metrics(), 'a2a_harness_open_streams')).toBe(0);
  });
});

describe('on PostgreSQL', () => {
  it('the queue depth is the shared queue, and turns and writes are counted the same', async () => {
    const database = await freshPostgresDatabase('a2a_metrics');
    const shared = await startHarness({
      databaseUrl: database.url,
      config: { offline: { latencyMs: WORD_MS } },
    });
    try {
      const read = () => scrape(shared.url);
      const post = (text: string, taskId?: string) =>
        rpc(shared.url, 'SendMessage', {
          message: userText(text, { taskId }),
          configuration: { returnImmediately: true },
        });
      const { body } = await post(slowText(60));
      const taskId = body.result.task.id as string;
      await post('second', taskId);
      await post('third', taskId);
      expect(sample(await read(), 'a2a_harness_turn_queue_depth')).toBe(2);
      const drained = await waitFor(
        async () => {
          const text = await read();
          return sample(text, 'a2a_harness_turns_total', { ending: 'answered' }) === 3
            ? text
            : undefined;
        },
        'the three turns to be answered',
        400,
      );
      expect(sample(drained, 'a2a_harness_turn_queue_depth')).toBe(0);
      expect(sample(drained, 'a2a_harness_db_write_seconds_count')).toBeGreaterThanOrEqual(6);
    } finally {
      await shared.stop();
      await database.drop();
    }
  });
});
