// @vitest-environment node
/**
 * The chat keeps up with its agent while the page stays open: a
 * custom command file dropped into the harness's commands folder shows in the
 * open slash menu; the agent stopping and starting again on the same port and
 * database is shown as an outage and recovered from without a reload; and a
 * second tab on the same task sees what the first one sends. A real harness on
 * loopback, a fake OpenAI-compatible server, and Debian's Chromium.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { buildWebChat, composerOf, connectChromium, newChatContext } from './support.js';

let fake: FakeOpenAI;
let harness: TestHarness;
let webUiDir: string;
let browser: Browser;
const consoleErrors: string[] = [];

const start = (port?: number, dataDir?: string) =>
  startHarness({
    webUiDir,
    port,
    dataDir,
    config: { defaultModel: 'openai/gpt-fast' },
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
  });

beforeAll(async () => {
  webUiDir = await buildWebChat();
  fake = await startFakeOpenAI({
    models: ['gpt-fast'],
    chunkDelayMs: 20,
    reply: ({ lastUserText }) =>
      lastUserText.startsWith('count')
        ? Array.from({ length: 1000 }, (_, i) => `.${i + 1}`).join(' ')
        : `Short answer to "${lastUserText}".`,
  });
  harness = await start();
  browser = await connectChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
  await fake?.close();
});

/** Opens the chat (at `hash`, if given); `query` is added to `/ui`'s URL. */
async function openChat(context: BrowserContext, query = '', hash = ''): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (message) => {
    // The outage itself makes the browser log failed requests; nothing else may.
    if (
      message.type() === 'error' &&
      !/Failed to load resource|ERR_CONNECTION_REFUSED/.test(message.text())
    )
      consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${harness.url}/ui${query}${hash}`);
  await page.getByText('Connected to a2a-harness').waitFor();
  return page;
}

async function say(page: Page, text: string): Promise<void> {
  const composer = composerOf(page);
  await composer.fill(text);
  await composer.press('Enter');
}

const answered = (page: Page, text: string) =>
  page
    .locator('.msg--agent:not([aria-busy])', { hasText: `Short answer to "${text}".` })
    .waitFor({ timeout: 30_000 });

const taskIdOf = (page: Page) => new URL(page.url()).hash.replace(/^#task=/, '');

describe('the live command list', () => {
  it('a custom command file dropped in shows in the open menu without a reload, and goes when removed', async () => {
    const context = await newChatContext(browser);
    // `?refresh=1`: the card is read again every second (12 s by default).
    const page = await openChat(context, '?refresh=1');
    const composer = composerOf(page);
    await composer.press('/');
    const menu = page.getByRole('listbox', { name: 'Commands' });
    await menu.waitFor();
    const standup = menu.getByRole('option', { name: /standup/ });
    expect(await standup.count()).toBe(0);

    const file = path.join(harness.dataDir, 'commands', 'standup.md');
    writeFileSync(
      file,
      '---\ndescription: Summarise my day\n---\n\nSummarise my day: $ARGUMENTS\n',
    );
    try {
      await standup.waitFor({ timeout: 10_000 });
      expect(await standup.textContent()).toContain('Summarise my day');
      // The menu stayed open all along, and still works.
      await composer.pressSequentially('stand');
      await expect.poll(() => menu.getByRole('option').count()).toBe(1);
    } finally {
      rmSync(file);
    }
    await standup.waitFor({ state: 'detached', timeout: 10_000 });
    await context.close();
  });

  it('coming back to the window reads the card again at once', async () => {
    const context = await newChatContext(browser);
    const page = await openChat(context); // the default period: 12 s
    const file = path.join(harness.dataDir, 'commands', 'focus-test.md');
    writeFileSync(file, '---\ndescription: Shows on focus\n---\n\nHello $ARGUMENTS\n');
    try {
      // Let the harness see the file, then focus the window.
      await expect
        .poll(async () => (await fetch(`${harness.url}/.well-known/agent-card.json`)).text())
        .toContain('focus-test');
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      const composer = composerOf(page);
      await composer.pressSequentially('/focus');
      await page
        .getByRole('listbox', { name: 'Commands' })
        .getByRole('option', { name: /focus-test/ })
        .waitFor({ timeout: 5_000 });
    } finally {
      rmSync(file);
    }
    await context.close();
  });
});

describe('two tabs on one task', () => {
  it('the second tab sees the message sent from the first, and its answer', async () => {
    const context = await newChatContext(browser);
    const first = await openChat(context);
    await say(first, 'hello from the first tab');
    await answered(first, 'hello from the first tab');
    const taskId = taskIdOf(first);
    expect(taskId).not.toBe('');

    const second = await openChat(context, '', `#task=${taskId}`);
    await answered(second, 'hello from the first tab');
    await say(first, 'and a second message');
    await answered(first, 'and a second message');
    await second
      .locator('.msg--user', { hasText: 'and a second message' })
      .waitFor({ timeout: 15_000 });
    await answered(second, 'and a second message');
    // And the other way round, with a command.
    await say(second, '/status');
    await first.locator('article.reply[data-command="status"]').waitFor({ timeout: 15_000 });
    await context.close();
  });
});

describe('an outage', () => {
  it('the agent restarting on the same port and database: the page says so, then recovers without a reload', async () => {
    const context = await newChatContext(browser);
    const page = await openChat(context);
    await say(page, 'before the outage');
    await answered(page, 'before the outage');
    const taskId = taskIdOf(page);
    const row = page.locator('.task-link', { hasText: 'before the outage' });
    await row.waitFor();
    await say(page, '/spawn a sub-task to keep in place');
    const subtask = page.locator('.task-link.is-subtask');
    await subtask.waitFor({ timeout: 15_000 });

    // The same task on a phone, whose drawer (with the line under Agent URL) is closed.
    const phoneContext = await newChatContext(browser, { viewport: { width: 390, height: 844 } });
    const phone = await phoneContext.newPage();
    await phone.goto(page.url());
    await phone.locator('.msg--user', { hasText: 'before the outage' }).waitFor();
    const headerState = (on: Page) => on.locator('header.chat-head .connection-state');
    expect(await headerState(phone).count()).toBe(0);

    const port = Number(new URL(harness.url).port);
    const { dataDir } = harness;
    await harness.stop();
    await page.getByText('Reconnecting to a2a-harness…').waitFor({ timeout: 20_000 });
    expect(await page.getByText('Connected to a2a-harness').count()).toBe(0);
    // Where the person looks: the header, on a desktop and on a phone.
    await headerState(page).getByText('Reconnecting…').waitFor();
    await headerState(phone).getByText('Reconnecting…').waitFor({ timeout: 20_000 });
    expect(await phone.locator('header.chat-head').textContent()).not.toContain('ready');
    // The sidebar keeps the task and its sub-task under it, and the page shows no server internals.
    await row.waitFor();
    // A message sent now is refused, stays in the box, and the list is read again (and fails).
    await say(page, 'during the outage');
    await page.locator('.task-problem').waitFor({ timeout: 10_000 });
    expect(await composerOf(page).inputValue()).toBe('during the outage');
    expect(await subtask.count()).toBe(1);
    await composerOf(page).fill('');
    expect(await page.locator('body').textContent()).not.toMatch(/destroyed|driver|knex|kysely/i);

    harness = await start(port, dataDir);
    await page.getByText('Connected to a2a-harness').waitFor({ timeout: 20_000 });
    await headerState(phone).waitFor({ state: 'detached', timeout: 20_000 });
    // Each page hears of the recovery on its own: read at once, the desktop's line was still there on a busy machine.
    await headerState(page).waitFor({ state: 'detached', timeout: 20_000 });
    await phoneContext.close();
    // The same task, no reload: the next message is answered in it.
    expect(taskIdOf(page)).toBe(taskId);
    await expect.poll(() => page.locator('[role="alert"]').count(), { timeout: 10_000 }).toBe(0);
    await say(page, 'after the outage');
    await answered(page, 'after the outage');
    expect(taskIdOf(page)).toBe(taskId);
    expect(await page.locator('.msg--user', { hasText: 'before the outage' }).count()).toBe(1);
    await context.close();
  }, 90_000);
});

describe('an outage during a turn', () => {
  it('the answer being written when the agent stops: after the restart the page shows how the turn ended, and goes on', async () => {
    const context = await newChatContext(browser);
    const page = await openChat(context);
    await say(page, 'count for a long time');
    const bubble = page.locator('.bubble--agent').last();
    await expect.poll(() => bubble.textContent(), { timeout: 15_000 }).toContain('.5 ');
    const taskId = taskIdOf(page);

    const port = Number(new URL(harness.url).port);
    const { dataDir } = harness;
    await harness.stop();
    await page.getByText('Reconnecting to a2a-harness…').waitFor({ timeout: 20_000 });
    harness = await start(port, dataDir);
    await page.getByText('Connected to a2a-harness').waitFor({ timeout: 20_000 });
    // Read again: the harness ended the turn when it shut down, and says so.
    await page.getByText(/This turn was interrupted/).waitFor({ timeout: 10_000 });
    await say(page, 'after the interrupted turn');
    await answered(page, 'after the interrupted turn');
    expect(taskIdOf(page)).toBe(taskId);
    await context.close();
  }, 90_000);
});

describe('the console', () => {
  it('showed no errors', () => {
    expect(consoleErrors).toEqual([]);
  });
});
