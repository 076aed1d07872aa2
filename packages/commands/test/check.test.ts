/** `a2a-commands check` against the example agent (passes) and a broken agent (each planted fault caught). */
import { Writable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkAgent } from '../src/check/index.js';
import { main } from '../src/check/main.js';
import { createExampleAgent } from '../examples/agent.js';
import { echoExecutor } from '../examples/echo-executor.js';
import { FAULTS, startBrokenAgent, type Fault } from './support/broken-agent.js';
import { listen, type Listening } from 'a2a-testing/http';

function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

const failedIds = (report: Awaited<ReturnType<typeof checkAgent>>) =>
  [...new Set(report.results.filter((r) => r.status === 'fail').map((r) => r.id))].sort();

// A check run mostly waits on the agent's model turns, and each test makes its
// own tasks (and the broken agent's tests their own agent): one at a time, the
// file took half a minute.
describe.concurrent('the example agent', () => {
  let agent: Listening;
  beforeAll(async () => {
    // The card names the agent's own URL, known once it listens.
    const app = express();
    agent = await listen(app);
    // A turn slow enough for a command to land while it runs.
    app.use(createExampleAgent(agent.baseUrl, echoExecutor(500)).app);
  });
  afterAll(() => agent.close());

  it('passes every check over JSON-RPC and HTTP+JSON', async ({ expect }) => {
    const report = await checkAgent(agent.baseUrl);
    expect(report.bindings).toEqual(['JSONRPC', 'HTTP+JSON']);
    expect(report.results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(report.summary.pass).toBeGreaterThanOrEqual(15);
    // It has no command that creates a sub-task: that check says so.
    const taskRef = report.results.find((r) => r.id === 'task-ref');
    expect(taskRef?.status).toBe('skip');
    expect(taskRef?.detail).toMatch(/--subtask-command/);
  });

  it('--no-model skips the checks that need a model turn, saying so', async ({ expect }) => {
    const report = await checkAgent(agent.baseUrl, { noModel: true });
    const skipped = report.results.filter((r) => r.needsModel);
    expect(skipped.map((r) => r.id).sort()).toEqual([
      'command-on-working-task',
      'command-on-working-task',
      'not-a-command',
      'not-a-command',
    ]);
    for (const result of skipped) {
      expect(result).toMatchObject({ status: 'skip', detail: 'needs a model turn (--no-model)' });
    }
  });
});

describe.concurrent('the broken agent', () => {
  // The command-on-working-task check needs its command to land while a turn
  // runs. With the tests side by side on a busy machine, the broken agent's
  // 300 ms turn can end first; where a test needs that check to pass or fail,
  // the turn is longer.
  const slowTurn = { turnMs: 1500 };

  it('passes with no fault planted, so each failure below is its fault', async ({ expect }) => {
    const agent = await startBrokenAgent([], slowTurn);
    try {
      const report = await checkAgent(agent.baseUrl, { timeoutMs: 5000 });
      // It claims neither the completion extension nor an extended card: those checks say so and skip.
      expect(
        report.results.filter((r) => r.status !== 'pass').map((r) => [r.id, r.status, r.detail]),
      ).toEqual([
        ['completion-entry', 'skip', 'the card does not offer the command completion extension'],
        ...report.bindings.map(() => [
          'extended-card',
          'skip',
          'the card does not offer an extended card',
        ]),
      ]);
    } finally {
      await agent.close();
    }
  });

  it.for(Object.entries(FAULTS) as Array<[Fault, string]>)(
    'planted fault %s fails check %s',
    async ([fault, check], { expect }) => {
      const needsTurn = check === 'command-on-working-task';
      const agent = await startBrokenAgent([fault], needsTurn ? slowTurn : {});
      try {
        const report = await checkAgent(agent.baseUrl, { timeoutMs: 5000 });
        expect(failedIds(report)).toContain(check);
      } finally {
        await agent.close();
      }
    },
  );

  it('the CLI names every planted fault and exits 1; --json gives the same report', async ({
    expect,
  }) => {
    const agent = await startBrokenAgent(Object.keys(FAULTS) as Fault[], slowTurn);
    try {
      const out = capture();
      const json = capture();
      const err = capture();
      // The two runs make their own tasks on the agent, so they run side by side.
      const [textExit, jsonExit] = await Promise.all([
        main(['check', agent.baseUrl, '--timeout', '5'], out.stream, err.stream),
        main(['check', agent.baseUrl, '--json', '--timeout', '5'], json.stream, err.stream),
      ]);
      expect(textExit).toBe(1);
      for (const check of Object.values(FAULTS)) {
        expect(out.text()).toMatch(new RegExp(`^FAIL  (\\[JSONRPC\\] )?${check}: `, 'm'));
      }
      expect(jsonExit).toBe(1);
      const report = JSON.parse(json.text()) as { results: Array<{ id: string; status: string }> };
      const failed = new Set(report.results.filter((r) => r.status === 'fail').map((r) => r.id));
      for (const check of Object.values(FAULTS)) expect(failed.has(check)).toBe(true);
    } finally {
      await agent.close();
    }
  });

  it('a bad command line is refused with the usage, exit 2', async ({ expect }) => {
    const out = capture();
    const err = capture();
    expect(await main(['check'], out.stream, err.stream)).toBe(2);
    expect(err.text()).toMatch(/^Usage: a2a-commands check <url>/);
  });
});
