// @vitest-environment node
/**
 * The web chat's paths that once broke (joining a running turn, stopping it), end to end: a real harness on
 * loopback with a fake OpenAI-compatible server behind it that writes slowly
 * (so turns are still running when the page joins or stops them), and Debian's
 * Chromium driven by playwright-core.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc } from 'a2a-testing/http';
import {
  axeViolations,
  buildWebChat,
  cards,
  composerOf,
  connectChromium,
  newChatPage,
} from './support.js';

/** `1 .2 .3 … .n`: every chunk is one number, so a tail is easy to tell from the whole. */
const counting = (n: number) =>
  Array.from({ length: n }, (_, i) => (i === 0 ? '1' : `.${i + 1}`)).join(' ');
/**
 * A reply long enough to scroll: many short paragraphs, of one word each
 * because the model writes a word every 40 ms.
 */
/** What "count …" is answered with, then ` more` for as long as a test holds the turn open. */
const COUNT = 20;
/** The whole answer to "count …" held open and then let go (maybe before the count was out). */
const HELD_COUNT = new RegExp(`^${counting(COUNT).replaceAll('.', '\\.')}( more)*$`);
const LONG = Array.from({ length: 40 }, (_, i) => `Paragraph${i + 1}.`).join('\n\n');

let fake: FakeOpenAI;
let harness: TestHarness;
let webUiDir: string;
let browser: Browser;
const consoleErrors: string[] = [];

beforeAll(async () => {
  webUiDir = await buildWebChat();
  fake = await startFakeOpenAI({
    models: ['gpt-fast'],
    chunkDelayMs: 40,
    reply: ({ lastUserText }) =>
      // Long enough to outlast an axe scan on a busy machine: Stop ends it.
      lastUserText.startsWith('count and be stopped')
        ? counting(1000)
        : lastUserText.startsWith('count')
          ? counting(COUNT)
          : lastUserText.startsWith('long')
            ? LONG
            : `Short answer to "${lastUserText}".`,
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
});

async function openChat(): Promise<Page> {
  const page = await newChatPage(browser);
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${harness.url}/ui`);
  await page.getByText('Connected to a2a-harness').waitFor();
  return page;
}

async function say(page: Page, text: string): Promise<void> {
  const composer = composerOf(page);
  await composer.fill(text);
  await composer.press('Enter');
}

/** Holds the model's answers begun from now open (` more` every 100 ms) until the returned function is called. */
function holdTurns(): () => void {
  let release!: () => void;
  fake.streamUntil(new Promise<void>((resolve) => (release = resolve)));
  return release;
}

const lastAnswer = (page: Page) => page.locator('.bubble--agent').last();
const finished = (page: Page, text: string) =>
  page.locator('.msg--agent:not([aria-busy])', { hasText: text }).waitFor({ timeout: 30_000 });

describe('the slash menu and commands', () => {
  it('the menu reopens on "/" after Esc, also after "New chat"', async () => {
    const page = await openChat();
    const composer = composerOf(page);
    const menu = page.getByRole('listbox', { name: 'Commands' });
    await composer.press('/');
    await menu.waitFor();
    await composer.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await composer.press('Backspace');
    await composer.press('/');
    await menu.waitFor();
    await composer.press('Escape');
    await composer.press('Backspace');
    await page.getByRole('button', { name: 'New chat' }).click();
    await composer.press('/');
    await menu.waitFor();
    await page.context().close();
  });

  it('one Enter runs /status; /nope is warned about, then sent as a message and answered', async () => {
    const page = await openChat();
    const composer = composerOf(page);
    await composer.pressSequentially('/status');
    await composer.press('Enter');
    await cards(page, 'status').first().waitFor();
    expect(await composer.inputValue()).toBe('');

    await composer.pressSequentially('/nope');
    await page.getByText('/nope is not a command of this agent — sent as a message.').waitFor();
    await composer.fill('/stauts');
    await page.getByText('Did you mean /status?', { exact: false }).waitFor();
    await composer.press('Enter');
    await finished(page, 'Short answer to "/stauts".');
    expect(await cards(page, 'stauts').count()).toBe(0);
    await page.context().close();
  });
});

describe('a running answer', () => {
  it('after a reload, the answer so far shows, then grows; not only its tail', async () => {
    const page = await openChat();
    // The model writes until the page has shown the answer growing after the reload.
    const release = holdTurns();
    try {
      await say(page, 'count');
      await expect
        .poll(() => lastAnswer(page).textContent(), { timeout: 15_000 })
        .toContain('.12 ');
      await page.reload();
      // The first text the bubble shows after the reload starts at the beginning.
      const shown = async () => (await lastAnswer(page).textContent())?.trim() ?? '';
      await expect.poll(shown, { timeout: 15_000 }).not.toBe('');
      const first = await shown();
      expect(first).toMatch(/^1 \.2 \.3/);
      await expect
        .poll(async () => (await shown()).length, { timeout: 15_000 })
        .toBeGreaterThan(first.length);
    } finally {
      release();
    }
    await finished(page, `.${COUNT}`);
    expect((await lastAnswer(page).textContent())?.trim()).toMatch(HELD_COUNT);
    await page.context().close();
  });

  it('opening a running sub-task shows its answer so far', async () => {
    const page = await openChat();
    // The sub-task writes until the page has shown its answer so far.
    const release = holdTurns();
    try {
      await say(page, '/spawn count for the sub-task');
      const link = cards(page, 'spawn')
        .first()
        .getByRole('link', { name: /Open sub-task/ });
      await link.waitFor({ timeout: 15_000 });
      // Opened once the sub-task has written a while: its answer so far is part of it (SEMANTICS §4).
      const subTaskId = (await link.getAttribute('href'))!.replace(/^#task=/, '');
      await expect
        .poll(
          async () => JSON.stringify((await rpc(harness.url, 'GetTask', { id: subTaskId })).body),
          { timeout: 15_000 },
        )
        .toContain('.10 ');
      await link.click();
      await expect
        .poll(async () => (await lastAnswer(page).textContent())?.trim() ?? '', {
          timeout: 15_000,
        })
        .toMatch(/^1 \.2 \.3/);
    } finally {
      release();
    }
    await finished(page, `.${COUNT}`);
    expect((await lastAnswer(page).textContent())?.trim()).toMatch(HELD_COUNT);
    await page.context().close();
  });

  it('Stop (a button that replaces Send) keeps the answer so far, marked stopped; the chat goes on', async () => {
    const page = await openChat();
    await say(page, 'count and be stopped');
    // Exact: a task's Hide button in the sidebar names it ("count and be stopped").
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
    await expect.poll(() => lastAnswer(page).textContent(), { timeout: 15_000 }).toContain('.8 ');
    expect(await axeViolations(page)).toEqual([]);
    await stop.click();
    await page.locator('.answer-stopped').waitFor({ timeout: 15_000 });
    const kept = (await page.locator('.bubble--agent').first().textContent()) ?? '';
    expect(kept).toMatch(/^1 \.2 \.3/);
    expect(kept).not.toContain('.1000');
    await page.getByRole('button', { name: 'Send' }).waitFor();

    await say(page, 'are you still there?');
    await finished(page, 'Short answer to "are you still there?".');
    expect(await page.locator('.answer-stopped').count()).toBe(1);
    await page.context().close();
  });

  it('Esc stops too', async () => {
    const page = await openChat();
    await say(page, 'count and be stopped by Esc');
    await expect.poll(() => lastAnswer(page).textContent(), { timeout: 15_000 }).toContain('.5 ');
    await composerOf(page).press('Escape');
    await page.locator('.answer-stopped').waitFor({ timeout: 15_000 });
    await page.context().close();
  });
});

describe('scrolling', () => {
  it('a chat opened after scrolling up in another one follows its new messages', async () => {
    const page = await openChat();
    await say(page, 'long one');
    await finished(page, 'Paragraph40.');
    const first = page.url();
    await page.getByRole('button', { name: 'New chat' }).click();
    await say(page, 'long two');
    await finished(page, 'Paragraph40.');
    const second = page.url();
    expect(second).not.toBe(first);

    const conversation = page.locator('.conversation');
    const fromBottom = () =>
      conversation.evaluate((element) =>
        Math.round(element.scrollHeight - element.scrollTop - element.clientHeight),
      );
    await conversation.evaluate((element) => {
      element.scrollTop = 0;
      element.dispatchEvent(new Event('scroll'));
    });
    expect(await fromBottom()).toBeGreaterThan(200);

    await page.goto(first);
    await page.locator('.bubble--user', { hasText: 'long one' }).waitFor();
    await expect.poll(fromBottom).toBeLessThan(80);
    await say(page, 'short question');
    await finished(page, 'Short answer to "short question".');
    await expect.poll(fromBottom).toBeLessThan(80);

    // No page-level scroll: wheeling over the sidebar leaves the app where it is.
    const pageScroll = () => page.evaluate(() => window.scrollY);
    await page.mouse.move(100, 400);
    await page.mouse.wheel(0, 2000);
    // A wheel over the conversation after it: once that one has scrolled the
    // conversation, the first was handled (unless the page scrolled, then or now).
    await page.mouse.move(700, 400);
    await page.mouse.wheel(0, -400);
    await expect
      .poll(async () => (await pageScroll()) !== 0 || (await fromBottom()) > 200, {
        timeout: 10_000,
      })
      .toBe(true);
    expect(await pageScroll()).toBe(0);
    expect(
      await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight),
    ).toBeLessThanOrEqual(0);
    await page.context().close();
  });

  it('no console errors appeared', () => {
    expect(consoleErrors).toEqual([]);
  });
});
