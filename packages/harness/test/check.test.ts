/** `a2a-commands check` against the harness, with API keys on: every check passes. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import os from 'node:os';
import { checkAgent } from 'a2a-commands/check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from '../src/serve/api-keys.js';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';

const KEY = 'checker-key-0123456789abcdef';
const bin = fileURLToPath(new URL('../../commands/src/check/bin.ts', import.meta.url));

/** What the checker says in the turn it sends a command into. */
const CHECKER_TURN_TEXT = 'a2a-commands check is testing you';
/** Twenty-five words at 30 ms each: the turn is still running when the checker's command lands. */
const LONG_ANSWER = Array.from({ length: 25 }, (_, i) => `word${i}`).join(' ');

let fake: FakeOpenAI;
let harness: TestHarness;
beforeAll(async () => {
  // Only the turn the checker sends a command into needs to be slow; its other turns
  // only need an answer, and get a short one.
  fake = await startFakeOpenAI({
    models: ['gpt-test'],
    chunkDelayMs: 30,
    reply: ({ lastUserText }) =>
      lastUserText.includes(CHECKER_TURN_TEXT) ? LONG_ANSWER : 'a short answer',
  });
  // A command for the checker only: its extended card lists it, the public card does not.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'a2a-check-'));
  mkdirSync(path.join(dataDir, 'commands'));
  writeFileSync(
    path.join(dataDir, 'commands', 'deploy.md'),
    '---\ndescription: Deploy a service\nargument-hint: <service>\nprincipals: checker\n---\nDeploy $1.\n',
  );
  harness = await startHarness({
    dataDir,
    apiKeys: new ApiKeys(parseApiKeyList(`checker=${KEY}`)),
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
    config: { defaultModel: 'openai/gpt-test' },
  });
});
afterAll(async () => {
  await harness?.stop();
  await fake?.close();
});

it('passes every check, on JSON-RPC and HTTP+JSON, the model checks, task_ref and completion included', async () => {
  const report = await checkAgent(harness.url, { apiKey: KEY });
  expect(report.bindings).toEqual(['JSONRPC', 'HTTP+JSON']);
  expect(report.results.filter((r) => r.status !== 'pass')).toEqual([]);
  expect(new Set(report.results.map((r) => r.id))).toEqual(
    new Set([
      'card-entry',
      'command-new-task',
      'reply-not-in-task-metadata',
      'not-a-command',
      'extension-echo',
      'streaming',
      'command-on-working-task',
      'command-on-ended-task',
      'task-ref',
      'completion-entry',
      'extended-card',
    ]),
  );
  for (const extended of report.results.filter((r) => r.id === 'extended-card')) {
    expect(extended.detail).toMatch(/1 beyond the public card \(\/deploy\), each answered$/);
  }
  for (const working of report.results.filter((r) => r.id === 'command-on-working-task')) {
    expect(working.detail).toMatch(/^reply tagged in state TASK_STATE_WORKING, during the turn/);
  }
});

it('without the key, the checks that call the agent fail, naming the refusal', async () => {
  const report = await checkAgent(harness.url, { noModel: true });
  const failed = report.results.filter((r) => r.status === 'fail');
  expect(failed.length).toBeGreaterThan(0);
  expect(failed[0]!.detail).toMatch(/Unauthenticated/);
});

it('the bin, run as a process: exit 0 and a JSON report', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--conditions=a2a-source',
      '--import',
      'tsx',
      bin,
      'check',
      harness.url,
      '--api-key',
      KEY,
      '--no-model',
      '--json',
    ],
    { timeout: 90_000 },
  );
  const report = JSON.parse(stdout) as { summary: Record<string, number> };
  expect(report.summary).toEqual({ pass: 16, fail: 0, skip: 4 });
}, 120_000);
