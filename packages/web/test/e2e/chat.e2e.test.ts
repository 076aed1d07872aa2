// @vitest-environment node
/**
 * The web chat end to end: the app built with Vite into a temporary folder
 * (which the harness serves as its webUiDir), a real harness on loopback with a fake
 * OpenAI-compatible server behind it (two models to choose from), and Debian's
 * Chromium driven by playwright-core. Screenshots only when asked for (see
 * `screenshot` in support.ts).
 */
import { complete, readCommands } from 'a2a-commands/client';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { rpc, userText } from 'a2a-testing/http';
import {
  axeViolations,
  buildWebChat,
  cards,
  composerOf,
  connectChromium,
  DESKTOP,
  newChatPage,
  PHONE,
  runCommand,
  screenshot,
} from './support.js';

let fake: FakeOpenAI;
let harness: TestHarness;
let webUiDir: string;
let browser: Browser;
/** Console errors and uncaught exceptions, per page, for the last test. */
const consoleErrors: string[] = [];

function watchConsole(page: Page, label: string): void {
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${label}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${label}: ${error.message}`));
}

async function newPage(options: BrowserContextOptions, label: string): Promise<Page> {
  const page = await newChatPage(browser, options);
  watchConsole(page, label);
  return page;
}

beforeAll(async () => {
  webUiDir = await buildWebChat();
  fake = await startFakeOpenAI({
    models: ['gpt-fast', 'gpt-smart'],
    chunkDelayMs: 25,
    reply: ({ model, lastUserText }) =>
      `Here is ${model} answering "${lastUserText}". The words arrive one by one, ` +
      'so the answer grows in place while the model is still writing it.',
  });
  harness = await startHarness({
    webUiDir,
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
  });
  browser = await connectChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
  await fake?.close();
});

describe('the web chat at /ui', () => {
  let page: Page;
  let parentUrl: string;

  it('is served by the harness, and shows the agent with its commands', async () => {
    page = await newPage(DESKTOP, 'desktop');
    const response = await page.goto(`${harness.url}/ui`);
    expect(response?.status()).toBe(200);
    // The title follows the card: wait for the page to show it (polling for 1 s failed on a busy machine).
    await page.getByRole('heading', { name: 'a2a-harness' }).waitFor();
    await expect.poll(() => page.title()).toContain('a2a-harness');
    await page.getByText('Connected to a2a-harness').waitFor();
    expect(await composerOf(page).isEnabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('opens the menu on "/", filters as you type, moves with the arrows, takes the entry on Enter; the hint shows', async () => {
    const card = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json();
    const commands = readCommands(card);
    const composer = composerOf(page);
    await composer.click();
    expect(await composer.getAttribute('aria-expanded')).toBe('false');

    await composer.press('/');
    const listbox = page.getByRole('listbox', { name: 'Commands' });
    await listbox.waitFor();
    expect(await composer.getAttribute('aria-expanded')).toBe('true');
    expect(await composer.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
    const options = listbox.getByRole('option');
    expect(await options.count()).toBe(commands.length);
    // Each entry shows its name, hint and description.
    const spawn = options.filter({ hasText: '/spawn' });
    expect(await spawn.locator('.slash-hint').textContent()).toBe('<prompt>');
    expect(await spawn.locator('.slash-desc').textContent()).toBe(
      commands.find((command) => command.name === 'spawn')!.description,
    );
    expect(await axeViolations(page)).toEqual([]);

    await composer.pressSequentially('mo');
    const expected = complete('/mo', commands).map((entry) => `/${entry.command.name}`);
    await expect.poll(() => options.locator('.slash-name').allTextContents()).toEqual(expected);
    expect(expected[0]).toBe('/model');

    const active = async () => {
      const id = await composer.getAttribute('aria-activedescendant');
      return page.locator(`[id="${id}"]`).locator('.slash-name').textContent();
    };
    expect(await active()).toBe(expected[0]);
    if (expected.length > 1) {
      await composer.press('ArrowDown');
      expect(await active()).toBe(expected[1]);
      expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
      expect(await options.nth(0).getAttribute('aria-selected')).toBe('false');
      await composer.press('ArrowUp');
    }
    await composer.press('ArrowUp');
    expect(await active()).toBe(expected[expected.length - 1]);
    await composer.press('ArrowDown');
    expect(await active()).toBe('/model');

    expect(await axeViolations(page, '.composer')).toEqual([]);

    await composer.press('Enter');
    expect(await composer.inputValue()).toBe('/model ');
    await listbox.waitFor({ state: 'detached' });
    // The argument's values take the command menu's place (completion.e2e.test.ts).
    await page.getByRole('listbox', { name: 'Values for model' }).waitFor();
    const hint = page.getByTestId('argument-hint');
    expect(await hint.isVisible()).toBe(true);
    expect(await hint.locator('.ghost-hint').textContent()).toBe('[<model>]');
  });

  it('sends the command; the reply is a card tagged /model, not a model bubble', async () => {
    await composerOf(page).press('Enter');
    const card = cards(page, 'model').first();
    await card.waitFor();
    expect(await card.locator('.reply-tag').textContent()).toBe('/model');
    expect(await card.locator('.bubble').count()).toBe(0);
    expect(await page.locator('.bubble--agent').count()).toBe(0);
    expect(await composerOf(page).inputValue()).toBe('');
    // The command started a task: it is in the URL. Holding only commands, it is
    // not listed in the sidebar until a prompt names it (next tests).
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#task=/);
    parentUrl = page.url();
    expect(await page.locator('.task-link[aria-current="page"]').count()).toBe(0);
  });

  it('the /model picker switches the model, and /status then shows the new one', async () => {
    const picker = cards(page, 'model').first().getByRole('group', { name: 'Choose a model' });
    expect(
      await picker.getByRole('button', { name: 'openai/gpt-fast' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await picker.getByRole('button', { name: 'openai/gpt-smart' }).click();
    const switched = cards(page, 'model').nth(1);
    await switched.waitFor();
    expect(await switched.textContent()).toContain('Model set to openai/gpt-smart');
    expect(
      await switched.getByRole('button', { name: 'openai/gpt-smart' }).getAttribute('aria-pressed'),
    ).toBe('true');

    const status = await runCommand(page, 'status');
    expect(await status.locator('.reply-tag').textContent()).toBe('/status');
    expect(await status.textContent()).toContain('Model: openai/gpt-smart');
  });

  it("streams the model's output in, then shows the whole answer once", async () => {
    // Record every text the answer bubble shows while it streams.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const bubbles = document.querySelectorAll('.bubble--agent');
        const last = bubbles[bubbles.length - 1];
        const text = last?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The model keeps writing until the page has shown it growing.
    let release!: () => void;
    fake.streamUntil(new Promise<void>((resolve) => (release = resolve)));
    const composer = composerOf(page);
    await composer.fill('Tell me about tides');
    await composer.press('Enter');
    const answer = page.locator('.msg--agent').last();
    const final = 'Here is gpt-smart answering "Tell me about tides".';
    // Several growing partial texts while the model still writes: it streams.
    await page.waitForFunction(() => (window as unknown as { seen: string[] }).seen.length > 5);
    expect(await page.locator('.msg--agent[aria-busy]').count()).toBe(1);
    release();
    await page.locator('.msg--agent:not([aria-busy])', { hasText: 'still writing it.' }).waitFor();
    expect(await answer.textContent()).toContain(final);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen[0]!.length).toBeLessThan(seen[seen.length - 1]!.length);
    // The preview was replaced by the final message, not shown twice.
    expect(await page.locator('.bubble--agent').count()).toBe(1);
    // The task is now named by its first prompt.
    await page.getByRole('heading', { level: 1, name: 'Tell me about tides' }).waitFor();
  });

  it('/spawn needs its prompt; its link opens the sub-task here, with a way back', async () => {
    const composer = composerOf(page);
    await composer.fill('');
    await composer.pressSequentially('/spa');
    await composer.press('Enter');
    expect(await composer.inputValue()).toBe('/spawn ');
    expect(await page.getByTestId('argument-hint').locator('.ghost-hint').textContent()).toBe(
      '<prompt>',
    );
    await composer.press('Enter');
    await page.getByText('/spawn needs an argument: <prompt>.').waitFor();
    expect(await cards(page, 'spawn').count()).toBe(0);
    expect(await composer.inputValue()).toBe('/spawn ');

    await composer.pressSequentially('write a haiku about tides');
    await composer.press('Enter');
    const card = cards(page, 'spawn').first();
    await card.waitFor();
    const link = card.getByRole('link', { name: /Open sub-task/ });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^#task=/);

    // The light-theme screenshot: a conversation with every kind of entry.
    await screenshot(page, 'web-chat-light.png');
    // And with the menu open over it.
    await composer.press('/');
    await page.getByRole('listbox').waitFor();
    await screenshot(page, 'web-chat-menu.png');
    await composer.press('Escape');
    await composer.fill('');

    await link.click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(href);
    await page
      .getByRole('heading', { level: 1, name: '/spawn write a haiku about tides' })
      .waitFor();
    const back = page.getByRole('link', { name: /Back to parent task/ });
    await back.waitFor();
    // The sub-task runs on the parent's model and its answer arrives here.
    await page
      .locator('.msg--agent', {
        hasText: 'Here is gpt-smart answering "write a haiku about tides"',
      })
      .waitFor();
    // The sidebar lists it under its parent.
    await page.locator('.task-link.is-subtask', { hasText: '/spawn write a haiku' }).waitFor();

    await back.click();
    await page.getByRole('heading', { level: 1, name: 'Tell me about tides' }).waitFor();
    expect(page.url()).toBe(parentUrl);
    // The heading comes from the task list at once; the transcript once the task is read.
    await cards(page, 'spawn').first().waitFor();
    expect(await cards(page, 'spawn').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('the sidebar lists the tasks by title and state; "New chat" starts another task', async () => {
    const rows = page.locator('.task-link');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).locator('.task-title').textContent()).toBe('Tell me about tides');
    expect(await rows.nth(0).locator('.state').textContent()).toBe('ready');
    await expect
      .poll(() => rows.nth(1).locator('.state').textContent(), { timeout: 15_000 })
      .toBe('ready');

    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('heading', { level: 1, name: 'New chat' }).waitFor();
    expect(await page.locator('.entry').count()).toBe(0);
    await composerOf(page).fill('A second conversation');
    await composerOf(page).press('Enter');
    await page.locator('.msg--agent:not([aria-busy])', { hasText: 'still writing it.' }).waitFor();
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(0).locator('.task-title').textContent()).toBe('A second conversation');
  });

  it(
    'looks right in dark mode and at phone width (screenshots, axe)',
    { timeout: 90_000 },
    async () => {
      const dark = await newPage({ ...DESKTOP, colorScheme: 'dark' }, 'dark');
      await dark.goto(parentUrl);
      await dark.getByRole('heading', { level: 1, name: 'Tell me about tides' }).waitFor();
      await cards(dark, 'spawn').first().waitFor();
      expect(await dark.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(
        'rgb(247, 247, 245)',
      );
      await dark.locator('.conversation').evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
      await screenshot(dark, 'web-chat-dark.png');
      expect(await axeViolations(dark)).toEqual([]);
      await composerOf(dark).click();
      await composerOf(dark).press('/');
      await dark.getByRole('listbox').waitFor();
      expect(await axeViolations(dark)).toEqual([]);

      const phone = await newPage({ ...PHONE, colorScheme: 'light' }, 'phone');
      await phone.goto(parentUrl);
      await phone.getByRole('heading', { level: 1, name: 'Tell me about tides' }).waitFor();
      await cards(phone, 'model').first().waitFor();
      // Nothing is wider than the screen, and the sidebar is a drawer behind a button.
      expect(
        await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
      expect(await phone.locator('.sidebar').isVisible()).toBe(false);
      await phone.locator('.conversation').evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
      await screenshot(phone, 'web-chat-phone.png');
      expect(await axeViolations(phone)).toEqual([]);
      const menu = phone.getByRole('button', { name: 'Show the task list' });
      await menu.click();
      await phone.locator('.sidebar.is-open').waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      await phone.getByRole('link', { name: /write a haiku/ }).click();
      await phone
        .getByRole('heading', { level: 1, name: '/spawn write a haiku about tides' })
        .waitFor();
      await expect.poll(() => phone.locator('.sidebar').isVisible()).toBe(false);
      await dark.context().close();
      await phone.context().close();
    },
  );

  it('no console errors appeared', () => {
    expect(consoleErrors).toEqual([]);
  });
});

describe('errors show inline, and the composer keeps the text', () => {
  it('an unreachable agent is explained, with a retry', async () => {
    const page = await newChatPage(browser);
    // Port 9 (discard) is closed on loopback: nothing answers.
    await page.goto(`${harness.url}/ui?agent=${encodeURIComponent('http://127.0.0.1:9')}`);
    const alert = page.getByRole('alert');
    await alert.getByText("Can't reach the agent").waitFor();
    expect(await alert.textContent()).toContain('http://127.0.0.1:9');
    expect(await alert.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    expect(await composerOf(page).isDisabled()).toBe(true);

    // The agent field points the page back at a live agent.
    const field = page.getByLabel('Agent URL');
    await field.fill(harness.url);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByText('Connected to a2a-harness').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.context().close();
  });

  it('a prompt to an ended task is not sent, and the page says why; the text stays; commands still run', async () => {
    const started = await rpc(harness.url, 'SendMessage', { message: userText('hello') });
    const id: string = started.body.result.task.id;
    await rpc(harness.url, 'CancelTask', { id });

    const page = await newChatPage(browser);
    await page.goto(`${harness.url}/ui#task=${id}`);
    await page.locator('.chat-head .state', { hasText: 'canceled' }).waitFor();
    const composer = composerOf(page);
    await composer.fill('are you still there?');
    await composer.press('Enter');
    // The page knows the task has ended: it says so in words, and sends nothing.
    await page.getByText('This task has ended and takes no more messages.').waitFor();
    expect(await composer.inputValue()).toBe('are you still there?');
    expect(await page.locator('.msg--user', { hasText: 'are you still there?' }).count()).toBe(0);

    // SEMANTICS §4: a command runs on a terminal task, and leaves its state alone.
    const status = await runCommand(page, 'status');
    expect(await status.textContent()).toContain('canceled');
    await page.context().close();
  });
});

describe('pointed at another agent (CORS)', () => {
  it('a page served by one harness talks to another on a different origin', async () => {
    const other = await startHarness({ webUiDir });
    try {
      const page = await newPage(DESKTOP, 'cross-origin');
      await page.goto(`${harness.url}/ui?agent=${encodeURIComponent(other.url)}`);
      await page.getByText('Connected to a2a-harness').waitFor();
      expect(await page.getByLabel('Agent URL').inputValue()).toBe(other.url);
      const help = await runCommand(page, 'help');
      expect(await help.textContent()).toContain('/spawn');
      await composerOf(page).fill('hi from another origin');
      await composerOf(page).press('Enter');
      await page.locator('.msg--agent', { hasText: 'offline/echo' }).waitFor();
      await page.context().close();
      expect(consoleErrors).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});
