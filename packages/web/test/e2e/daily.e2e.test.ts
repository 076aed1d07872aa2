// @vitest-environment node
/**
 * The web chat as a daily tool, end to end: the Enter rule in the value list,
 * focus after Stop and after opening a sub-task by keyboard, the stop mark,
 * an ended task, and the script as the harness serves it. A real harness on
 * loopback, a fake OpenAI-compatible server that writes slowly, and Debian's
 * Chromium.
 */
import { request } from 'node:http';
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
  newChatPage,
} from './support.js';

const counting = (n: number) => Array.from({ length: n }, (_, i) => `.${i + 1}`).join(' ');

let fake: FakeOpenAI;
let harness: TestHarness;
let webUiDir: string;
let browser: Browser;
const consoleErrors: string[] = [];

beforeAll(async () => {
  webUiDir = await buildWebChat();
  fake = await startFakeOpenAI({
    models: ['fake-alpha', 'fake-beta'],
    chunkDelayMs: 30,
    reply: ({ lastUserText }) =>
      lastUserText.startsWith('count') ? counting(1000) : `Short answer to "${lastUserText}".`,
  });
  harness = await startHarness({
    webUiDir,
    config: { defaultModel: 'openai/fake-alpha' },
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
  });
  browser = await connectChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
  await fake?.close();
});

async function openChat(hash = ''): Promise<Page> {
  const page = await newChatPage(browser);
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${harness.url}/ui${hash}`);
  await page.getByText('Connected to a2a-harness').waitFor();
  return page;
}

async function say(page: Page, text: string): Promise<void> {
  const composer = composerOf(page);
  await composer.fill(text);
  await composer.press('Enter');
}

const finished = (page: Page, text: string) =>
  page.locator('.msg--agent:not([aria-busy])', { hasText: text }).waitFor({ timeout: 30_000 });
const focusIsInComposer = (page: Page) =>
  page.evaluate(() => document.activeElement?.classList.contains('composer-input') ?? false);
const taskIdOf = (page: Page) => new URL(page.url()).hash.replace(/^#task=/, '');

describe('Enter with a value list open', () => {
  it('takes the highlighted entry: /model beta sends /model openai/fake-beta, /help mo /help model, /sta /status', async () => {
    const page = await openChat();
    const composer = composerOf(page);
    await composer.pressSequentially('/model beta');
    const values = page.getByRole('listbox', { name: 'Values for model' });
    await expect
      .poll(() => values.getByRole('option').locator('.slash-name').allTextContents())
      .toEqual(['openai/fake-beta']);
    await composer.press('Enter');
    const card = cards(page, 'model').first();
    await card.waitFor();
    expect(await card.textContent()).toContain('openai/fake-beta');
    expect(await card.getAttribute('class')).not.toContain('reply--error');
    expect(await page.locator('.command-line').first().textContent()).toBe(
      '/model openai/fake-beta',
    );

    // The header names the task's model, also after a reload.
    const model = page.locator('header.chat-head .chat-model');
    await expect.poll(() => model.textContent()).toContain('openai/fake-beta');
    await page.reload();
    await page.getByText('Connected to a2a-harness').waitFor();
    await expect.poll(() => model.textContent()).toContain('openai/fake-beta');

    // Rename: /title from the header.
    await page.locator('header.chat-head').getByRole('button', { name: 'Rename' }).click();
    expect(await composer.inputValue()).toBe('/title ');
    await page.keyboard.type('Model trials');
    await page.keyboard.press('Enter');
    await cards(page, 'title').first().waitFor();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 })
      .toBe('Model trials');

    await composer.pressSequentially('/help mo');
    await page.getByRole('listbox', { name: 'Values for command' }).waitFor();
    await composer.press('Enter');
    await cards(page, 'help').first().waitFor();
    expect(await page.locator('.command-line').last().textContent()).toBe('/help model');

    // The same rule for names: /sta takes /status, which takes no argument, and runs it.
    await composer.pressSequentially('/sta');
    await page.getByRole('listbox', { name: 'Commands' }).waitFor();
    await composer.press('Enter');
    await cards(page, 'status').first().waitFor();
    expect(await page.locator('.command-line').last().textContent()).toBe('/status');
    expect(await composer.inputValue()).toBe('');
    await page.context().close();
  });
});

describe('focus', () => {
  it('stays in the message box after Stop; the stopped answer is marked, with no /stop line or card', async () => {
    const page = await openChat();
    await say(page, 'count slowly');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor({ timeout: 15_000 });
    await expect
      .poll(() => page.locator('.bubble--agent').last().textContent(), { timeout: 15_000 })
      .toContain('.5 ');
    // Stop sends /stop; its reply may come after the stop mark and Send.
    const stopReply = page.waitForResponse((response) =>
      /"text":"\/stop"/.test(response.request().postData() ?? ''),
    );
    await stop.click();
    await page.locator('.answer-stopped').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await focusIsInComposer(page)).toBe(true);
    await page.keyboard.type('typed after stopping');
    expect(await composerOf(page).inputValue()).toBe('typed after stopping');
    // The mark on the answer says it; no command line or card repeats it, also
    // once /stop's reply is in and a later answer has come after it.
    await (await stopReply).finished();
    await page.keyboard.press('Enter');
    await finished(page, 'Short answer to "typed after stopping".');
    expect(await page.locator('.command-line', { hasText: '/stop' }).count()).toBe(0);
    expect(await cards(page, 'stop').count()).toBe(0);
    await page.context().close();
  });

  it('stays in the message box after opening a sub-task by keyboard, and after going back', async () => {
    const page = await openChat();
    await say(page, 'a parent message');
    await finished(page, 'Short answer to "a parent message".');
    const parentId = taskIdOf(page);
    await say(page, '/spawn a child message');
    const link = cards(page, 'spawn')
      .first()
      .getByRole('link', { name: /Open sub-task/ });
    await link.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => taskIdOf(page)).not.toBe(parentId);
    await page.getByRole('link', { name: /Back to parent task/ }).waitFor();
    await expect.poll(() => focusIsInComposer(page)).toBe(true);

    await page.getByRole('link', { name: /Back to parent task/ }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => taskIdOf(page)).toBe(parentId);
    await expect.poll(() => focusIsInComposer(page)).toBe(true);
    await page.context().close();
  });
});

describe('an ended task', () => {
  it('says it has ended and offers a new chat or /fork instead of inviting a prompt', async () => {
    const page = await openChat();
    await say(page, 'soon to be canceled');
    await finished(page, 'Short answer to "soon to be canceled".');
    const taskId = taskIdOf(page);
    const canceled = await fetch(`${harness.url}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'CancelTask', params: { id: taskId } }),
    });
    expect((await canceled.json()).error).toBeUndefined();
    await page.reload();

    const ended = page.getByRole('region', { name: 'This task has ended' });
    await ended.waitFor({ timeout: 15_000 });
    expect(await ended.textContent()).toContain('canceled');
    expect(await composerOf(page).getAttribute('placeholder')).toContain('ended');
    expect(await axeViolations(page)).toEqual([]);

    // A prompt typed anyway is not sent: the page says why, in words, where it would have sent it.
    const sentAnyway: string[] = [];
    page.on('request', (request) => {
      if (request.postData()?.includes('one more thing')) sentAnyway.push(request.url());
    });
    await say(page, 'one more thing');
    await page
      .getByText(
        'This task has ended and takes no more messages. Start a new chat, or /fork it to go on.',
      )
      .waitFor();
    expect(await composerOf(page).inputValue()).toBe('one more thing');
    expect(await page.locator('.bubble--user', { hasText: 'one more thing' }).count()).toBe(0);

    // /fork copies it into a task that goes on.
    await ended.getByRole('button', { name: /Fork/ }).click();
    await cards(page, 'fork').first().waitFor();
    // Asked for after the prompt, /fork's answer is in: no request carried the prompt.
    expect(sentAnyway).toEqual([]);
    expect(await page.locator('body').textContent()).not.toContain('TASK_STATE_CANCELED');
    await ended
      .getByRole('link', { name: /Open fork/ })
      .or(cards(page, 'fork').getByRole('link'))
      .first()
      .click();
    await expect.poll(() => taskIdOf(page)).not.toBe(taskId);
    await page.getByRole('region', { name: 'This task has ended' }).waitFor({ state: 'detached' });

    // New chat starts afresh.
    await page.goto(`${harness.url}/ui#task=${taskId}`);
    await ended.waitFor();
    await ended.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => taskIdOf(page)).toBe('');
    await expect.poll(() => focusIsInComposer(page)).toBe(true);
    await page.context().close();
  });
});

describe('answers', () => {
  it('copy a whole answer; edit and resend the last message; regenerate the last answer', async () => {
    const page = await openChat();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: harness.url,
    });
    await say(page, 'a question to edit');
    await finished(page, 'Short answer to "a question to edit".');
    await page.getByRole('button', { name: 'Copy answer' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'Short answer to "a question to edit".',
    );

    await page.getByRole('button', { name: 'Edit this message' }).click();
    const composer = composerOf(page);
    expect(await composer.inputValue()).toBe('a question to edit');
    expect(await focusIsInComposer(page)).toBe(true);
    await page.keyboard.type(', edited');
    await page.keyboard.press('Enter');
    await finished(page, 'Short answer to "a question to edit, edited".');

    await page.getByRole('button', { name: 'Regenerate' }).click();
    // A second answer from the model: as long as a turn takes, not vitest's default second.
    await expect
      .poll(() => page.locator('.msg--agent:not([aria-busy])', { hasText: ', edited' }).count(), {
        timeout: 30_000,
      })
      .toBe(2);
    expect(await page.getByRole('button', { name: 'Regenerate' }).count()).toBe(1);
    await page.context().close();
  });
});

describe('the empty screen', () => {
  it('its /help suggestion leaves no "Untitled task" behind; the first prompt names the chat', async () => {
    const page = await openChat();
    const untitled = page.locator('.task-link', { hasText: 'Untitled task' });
    await page.locator('.starter', { hasText: '/help' }).click();
    await cards(page, 'help').first().waitFor();
    // A later command in the same task: by its card, the page has done with the first.
    await say(page, '/status');
    await cards(page, 'status').first().waitFor();
    expect(await untitled.count()).toBe(0);
    // Read again, the task and its two cards come in at once.
    await page.reload();
    await cards(page, 'status').first().waitFor();
    expect(await cards(page, 'help').count()).toBe(1);
    expect(await untitled.count()).toBe(0);

    await say(page, 'now a real question');
    await finished(page, 'Short answer to "now a real question".');
    await page.locator('.task-link', { hasText: 'now a real question' }).waitFor();
    await page.context().close();
  });
});

describe('the script as served', () => {
  it('comes compressed as the browser accepts, and no source map is served or named', async () => {
    const html = await (await fetch(`${harness.url}/ui/`)).text();
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      request(
        `${harness.url}${script}`,
        { headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.headers));
        },
      )
        .on('error', reject)
        .end();
    });
    expect(headers['content-encoding']).toBe('br');
    const plain = await (await fetch(`${harness.url}${script}`)).text();
    expect(plain).not.toContain('sourceMappingURL');
    expect((await fetch(`${harness.url}${script}.map`)).status).toBe(404);
  });
});

it('showed no errors in the browser console', () => {
  expect(consoleErrors).toEqual([]);
});
