// @vitest-environment node
/**
 * `/tasks` in the web chat is a tree: a sub-task and a fork show under the
 * task they came from, marked, never above it. A real harness on loopback
 * (the offline model) and Debian's Chromium.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import {
  axeViolations,
  buildWebChat,
  cards,
  composerOf,
  connectChromium,
  newChatPage,
  runCommand,
} from './support.js';

let harness: TestHarness;
let browser: Browser;

beforeAll(async () => {
  const webUiDir = await buildWebChat();
  harness = await startHarness({ webUiDir, config: { offline: { latencyMs: 5 } } });
  browser = await connectChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

it('lists sub-tasks and forks under their parent, each marked, the parent first', async () => {
  const page = await newChatPage(browser);
  await page.goto(`${harness.url}/ui`);
  await page.getByText('Connected to a2a-harness').waitFor();
  const composer = composerOf(page);
  await composer.fill('Plan the week');
  await composer.press('Enter');
  await page.locator('.msg--agent:not([aria-busy])').first().waitFor({ timeout: 30_000 });
  await runCommand(page, 'title', 'Week plan');
  await runCommand(page, 'spawn', 'list the chores');
  await runCommand(page, 'fork', 'Week plan, again');

  // The sub-task's own turn and the fork are newer than the task they came from.
  const card = await runCommand(page, 'tasks');
  const rows = card.locator('.reply-tasks li');
  await expect.poll(() => rows.count()).toBe(3);
  const texts = (await rows.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  expect(texts[0]).toMatch(/^\* Week plan this task/);
  expect(texts.slice(1).sort()).toEqual([
    expect.stringMatching(/^Fork: Week plan, again/),
    expect.stringMatching(/^↳ Sub-task: \/spawn list the chores/),
  ]);
  for (const row of [rows.nth(1), rows.nth(2)]) {
    await expect.poll(() => row.locator('.reply-task-branch').count()).toBe(1);
    const [parentLeft, childLeft] = await Promise.all([
      rows
        .nth(0)
        .locator('a')
        .evaluate((a) => a.getBoundingClientRect().left),
      row.locator('a').evaluate((a) => a.getBoundingClientRect().left),
    ]);
    expect(childLeft).toBeGreaterThan(parentLeft);
  }
  expect(await cards(page, 'tasks').count()).toBe(1);
  expect(await axeViolations(page, 'article.reply[data-command="tasks"]')).toEqual([]);
  await page.context().close();
}, 90_000);
