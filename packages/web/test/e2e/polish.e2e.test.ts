// @vitest-environment node
/**
 * Polish, end to end: Markdown answers with a code Copy button,
 * where focus goes, the phone drawer as a modal, and replies that agree with
 * themselves (`/model` errors, `/tasks` titles, forks, `/clear`). A real
 * harness on loopback, a fake OpenAI-compatible server behind it, and Debian's
 * Chromium driven by playwright-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import {
  axeViolations,
  buildWebChat,
  cards,
  composerOf,
  connectChromium,
  DESKTOP,
  newChatContext,
  PHONE,
  runCommand,
  screenshot,
} from './support.js';

/** What the fake model answers to "markdown please". */
const MARKDOWN = [
  '## Steps',
  '',
  '1. Install the tools',
  '2. Run the **tests**',
  '',
  '> Read the [guide](https://example.com/guide) first. [Bad](javascript:alert(1))',
  '',
  '| Tool | Use |',
  '| ---- | --- |',
  '| npm  | run |',
  '',
  '```sh',
  'npm ci',
  'npm test',
  '```',
].join('\n');

let fake: FakeOpenAI;
let harness: TestHarness;
let webUiDir: string;
let browser: Browser;
const consoleErrors: string[] = [];

beforeAll(async () => {
  webUiDir = await buildWebChat();
  fake = await startFakeOpenAI({
    models: ['gpt-fast', 'gpt-smart'],
    chunkDelayMs: 5,
    reply: ({ lastUserText }) =>
      lastUserText.startsWith('markdown') ? MARKDOWN : `Short answer to "${lastUserText}".`,
  });
  harness = await startHarness({
    webUiDir,
    config: { defaultModel: 'openai/gpt-fast' },
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
  });
  browser = await connectChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
  await fake?.close();
  expect(consoleErrors).toEqual([]);
});

async function openChat(options = DESKTOP, url = `${harness.url}/ui`): Promise<Page> {
  const context = await newChatContext(browser, options);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.url });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(url);
  // On a phone the status line is in the closed drawer: present, not visible.
  await page.getByText('Connected to a2a-harness').waitFor({ state: 'attached' });
  return page;
}

async function say(page: Page, text: string): Promise<void> {
  const composer = composerOf(page);
  await composer.fill(text);
  await composer.press('Enter');
  await page.locator('.msg--agent:not([aria-busy])').last().waitFor();
}

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    return active === document.body || active === null
      ? 'body'
      : (active.getAttribute('aria-label') ?? active.textContent ?? active.tagName);
  });

describe('Markdown answers', () => {
  it('renders headings, lists, quotes, tables and code, with safe links and a code Copy button', async () => {
    const page = await openChat();
    await say(page, 'markdown please');
    const answer = page.locator('.bubble--agent').last();
    await answer.locator('pre code').waitFor();
    expect(await answer.getByRole('heading', { level: 2, name: 'Steps' }).count()).toBe(1);
    expect(await answer.locator('ol > li').allTextContents()).toEqual([
      'Install the tools',
      'Run the tests',
    ]);
    expect(await answer.locator('blockquote').count()).toBe(1);
    expect(await answer.getByRole('table').locator('td').allTextContents()).toEqual(['npm', 'run']);
    const guide = answer.getByRole('link', { name: 'guide' });
    expect(await guide.getAttribute('target')).toBe('_blank');
    expect(await guide.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await answer.locator('a[href^="javascript"]').count()).toBe(0);

    // The Copy button: reached with Tab from the link before it, pressed with Enter.
    await guide.focus();
    await page.keyboard.press('Tab');
    expect(await focusedLabel(page)).toBe('Copy code');
    await page.keyboard.press('Enter');
    await answer.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('npm ci\nnpm test');
    await screenshot(page, 'web-chat-markdown.png');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe('focus', () => {
  it('starts in the message box, comes back to it after a picker click and New chat, and a skip link leads to it', async () => {
    const page = await openChat();
    await expect.poll(() => focusedLabel(page)).toBe('Message');

    const models = await runCommand(page, 'model');
    await models.getByRole('button', { name: 'openai/gpt-smart' }).click();
    await cards(page, 'model').nth(1).waitFor();
    expect(await focusedLabel(page)).toBe('Message');

    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('heading', { level: 1, name: 'New chat' }).waitFor();
    await expect.poll(() => focusedLabel(page)).toBe('Message');

    // The skip link comes first, before the sidebar's controls.
    await page.getByRole('button', { name: 'New chat' }).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await focusedLabel(page)).toBe('Skip to the message box');
    expect(await page.getByRole('link', { name: 'Skip to the message box' }).isVisible()).toBe(
      true,
    );
    await page.keyboard.press('Enter');
    expect(await focusedLabel(page)).toBe('Message');
    await page.context().close();
  });

  it('the phone drawer takes focus, keeps Tab inside, and Esc closes it and gives focus back', async () => {
    // With reduced motion (as every page here), which once kept the drawer from taking focus.
    const page = await openChat(PHONE);
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(
      true,
    );
    // Key hints are for keyboards: not shown on a phone.
    expect(await page.locator('.composer-keys').isVisible()).toBe(false);
    const menu = page.getByRole('button', { name: 'Show the task list' });
    await menu.click();
    await page.locator('.sidebar.is-open').waitFor();
    await expect.poll(() => focusedLabel(page)).toBe('Close the task list');
    const inDrawer = () =>
      page.evaluate(() => document.getElementById('sidebar')!.contains(document.activeElement));
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      expect(await inDrawer()).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await inDrawer()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await focusedLabel(page)).toBe('Show the task list');
    await page.context().close();
  });
});

describe('replies that agree with themselves', () => {
  it('/model with an unknown id is marked as needing attention', async () => {
    const page = await openChat();
    const card = await runCommand(page, 'model', 'gpt-99');
    expect(await card.textContent()).toContain('Unknown model "gpt-99"');
    expect(await card.getAttribute('class')).toContain('reply--error');
    await page.context().close();
  });

  it('/tasks names the chat as the page does, draws its star, and a fork is a fork', async () => {
    const page = await openChat();
    await say(page, 'Plan a weekend trip');
    await page.getByRole('heading', { level: 1, name: 'Plan a weekend trip' }).waitFor();

    const tasks = await runCommand(page, 'tasks');
    const current = tasks.locator('li.is-current');
    expect(await current.getByRole('link').textContent()).toBe('Plan a weekend trip');
    expect(await current.locator('.reply-task-star').textContent()).toBe('*');

    const fork = await runCommand(page, 'fork');
    expect(await fork.getByRole('link', { name: /sub-task/ }).count()).toBe(0);
    await fork.getByRole('link', { name: /Open fork/ }).click();
    await page.getByRole('heading', { level: 1, name: /^Fork of/ }).waitFor();
    const back = page.getByRole('link', { name: /Forked from/ });
    await back.waitFor();
    expect(await page.getByRole('link', { name: /Back to parent task/ }).count()).toBe(0);
    expect(await page.locator('.task-link.is-fork').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await back.click();
    await page.getByRole('heading', { level: 1, name: 'Plan a weekend trip' }).waitFor();
    await page.context().close();
  });

  it('/clear leaves a divider; a bare "/" that matches nothing says so', async () => {
    const page = await openChat();
    await say(page, 'Hello there');
    const clear = await runCommand(page, 'clear');
    expect(await clear.textContent()).toContain('Context cleared.');
    await page.locator('.entry--divider').waitFor();

    const composer = composerOf(page);
    await composer.fill('');
    await composer.pressSequentially('/zzz');
    await page.getByText('No command matches /zzz.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });
});
