/**
 * `npm run bench:web`: the web chat's cost of one streamed answer, in a fresh
 * chat and at the end of a 200-entry conversation, side by side in one run in
 * headless Chromium. Figures per answer: the renderer's script time (CDP
 * `ScriptDuration`), and the longest main-thread task while it streams (Long
 * Tasks API). Rounds alternate fresh and long; medians are reported.
 * Targets, each printed with pass or fail: the long chat's median script time
 * ≤ 1.5 × the fresh chat's, and no task over 100 ms while an answer streams in
 * the long chat, in any round.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TaskState, type Message } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { AGENT, newMessage, textPart, USER } from 'a2a-commands';
import { chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { startFakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness } from 'a2a-testing/harness';
import { HarnessTaskStore, openDatabase } from 'a2a-harness/internal';
import { figure, type Figure } from './lib/stats.js';
import { repoRoot } from './lib/servers.js';
import { scratchDir } from './lib/scratch.js';

const ENTRIES = 200;
const CHUNKS = 40;
const ROUNDS = Number(process.env['ROUNDS'] ?? 5);
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const log = (message: string) => console.log(`[web-long-chat] ${message}`);

/** An answer of `CHUNKS` words (the fake model streams one word a chunk), with some Markdown. */
const ANSWER = Array.from({ length: CHUNKS }, (_, i) =>
  i % 10 === 0 ? `\n\n**Part ${i / 10 + 1}.**` : `word${i}`,
).join(' ');

/** What a long conversation holds: prompts, and answers with a list and code. */
function seedAnswer(i: number): string {
  return `Answer ${i}:\n\n- a point about **item ${i}**\n- another, with \`code ${i}\`\n\n\`\`\`ts\nconst value${i} = ${i};\n\`\`\``;
}

/** A task with `ENTRIES` messages, written into the data directory before the harness starts. */
async function seedLongTask(dataDir: string): Promise<string> {
  const database = await openDatabase(`sqlite:${dataDir}/tasks.db`);
  const store = new HarnessTaskStore(database.db);
  const id = crypto.randomUUID();
  const contextId = crypto.randomUUID();
  const history: Message[] = Array.from({ length: ENTRIES }, (_, i) => ({
    ...newMessage({
      role: i % 2 === 0 ? USER : AGENT,
      parts: [textPart(i % 2 === 0 ? `question ${i / 2}` : seedAnswer((i - 1) / 2))],
      taskId: id,
      contextId,
    }),
    messageId: `seed-${i}`,
  }));
  const status = {
    state: TaskState.TASK_STATE_INPUT_REQUIRED,
    message: undefined,
    timestamp: new Date().toISOString(),
  };
  const task = { id, contextId, status, history, artifacts: [], metadata: {} };
  await store.create(task, new ServerCallContext());
  await database.close();
  return id;
}

interface AnswerCost {
  scriptMs: number;
  longestTaskMs: number;
}

/** Sends one prompt and measures the page while its answer streams, until it is complete. */
async function measureAnswer(page: Page, prompt: string): Promise<AnswerCost> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const scriptSeconds = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((metric) => metric.name === 'ScriptDuration')?.value ?? 0;
  };
  await page.evaluate(() => {
    const tasks: number[] = [];
    (window as unknown as { benchTasks: number[] }).benchTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  const composer = page.getByRole('combobox', { name: 'Message' });
  const answers = page.locator('.msg--agent:not([aria-busy])', { hasText: `word${CHUNKS - 1}` });
  const answered = await answers.count();
  await composer.fill(prompt);
  const before = await scriptSeconds();
  await composer.press('Enter');
  await answers.nth(answered).waitFor({ timeout: 60_000 });
  const after = await scriptSeconds();
  const tasks = await page.evaluate(
    () => (window as unknown as { benchTasks: number[] }).benchTasks,
  );
  await cdp.detach();
  return { scriptMs: (after - before) * 1000, longestTaskMs: Math.max(0, ...tasks) };
}

async function main(): Promise<void> {
  const webRoot = path.join(repoRoot, 'packages/web');
  if (!process.argv.includes('--no-build')) {
    log('building the web chat');
    await build({
      configFile: path.join(webRoot, 'vite.config.ts'),
      root: webRoot,
      logLevel: 'warn',
    });
  }
  const fake = await startFakeOpenAI({ models: ['gpt-fast'], chunkDelayMs: 25, reply: ANSWER });
  const dataDir = scratchDir('web-long-chat');
  const longTask = await seedLongTask(dataDir);
  const harness = await startHarness({
    dataDir,
    config: { defaultModel: 'openai/gpt-fast' },
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic'],
  });
  const fresh: AnswerCost[] = [];
  const long: AnswerCost[] = [];
  try {
    const open = async (hash: string) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`${harness.url}/ui${hash}`);
      await page.getByText('Connected to a2a-harness').waitFor();
      return page;
    };
    const longPage = await open(`#task=${longTask}`);
    await longPage
      .locator('.entry')
      .nth(ENTRIES - 1)
      .waitFor();
    // One unmeasured answer each warms both pages up.
    await measureAnswer(longPage, 'warm up');
    for (let round = 0; round < ROUNDS; round++) {
      const freshPage = await open('');
      if (round === 0) await measureAnswer(freshPage, 'warm up');
      fresh.push(await measureAnswer(freshPage, `fresh ${round}`));
      await freshPage.close();
      long.push(await measureAnswer(longPage, `long ${round}`));
      log(
        `round ${round + 1}: fresh ${fresh.at(-1)!.scriptMs.toFixed(0)} ms, long ${long.at(-1)!.scriptMs.toFixed(0)} ms of script`,
      );
    }
  } finally {
    await browser.close();
    await harness.stop();
    await fake.close();
  }
  report(fresh, long);
}

function report(fresh: AnswerCost[], long: AnswerCost[]): void {
  const script = {
    fresh: figure(fresh.map((c) => c.scriptMs)),
    long: figure(long.map((c) => c.scriptMs)),
  };
  const tasks = {
    fresh: figure(fresh.map((c) => c.longestTaskMs)),
    long: figure(long.map((c) => c.longestTaskMs)),
  };
  const ratio = script.long.median / script.fresh.median;
  // The target is the long conversation's; the fresh chat's tasks are shown beside it.
  const longest = Math.max(0, ...tasks.long.rounds);
  const verdict = (met: boolean) => (met ? 'pass' : 'fail');
  const row = (name: string, f: Figure) =>
    `| ${name} | ${f.median.toFixed(0)} | ${f.min.toFixed(0)}–${f.max.toFixed(0)} |`;
  const lines = [
    `Web chat, one ${CHUNKS}-chunk answer, ${ROUNDS} rounds side by side (${new Date().toISOString()})`,
    '',
    '| Script time per answer (ms) | median | range |',
    '| --- | --- | --- |',
    row('fresh chat', script.fresh),
    row(`after ${ENTRIES} entries`, script.long),
    '',
    '| Longest main-thread task while it streams (ms) | median | range |',
    '| --- | --- | --- |',
    row('fresh chat', tasks.fresh),
    row(`after ${ENTRIES} entries`, tasks.long),
    '',
    `Long ÷ fresh script time: ${ratio.toFixed(2)} × (target ≤ 1.5) — ${verdict(ratio <= 1.5)}`,
    `Longest task while streaming after ${ENTRIES} entries: ${longest.toFixed(0)} ms (target ≤ 100) — ${verdict(longest <= 100)}`,
  ];
  const out = path.join(repoRoot, 'bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'web-long-chat.md'), `${lines.join('\n')}\n`);
  writeFileSync(
    path.join(out, 'web-long-chat.json'),
    `${JSON.stringify({ script, tasks, ratio, longest }, null, 2)}\n`,
  );
  console.log(lines.join('\n'));
}

await main();
