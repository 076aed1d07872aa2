// @vitest-environment node
/**
 * The web chat with an agent that needs an API key, end to end: the built app
 * served at /ui by a harness started with keys for alice and bob (its model is
 * the offline echo), driven in Debian's Chromium by playwright-core.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeys, parseApiKeyList } from 'a2a-harness';
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

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-fedcba9876543210';
const WRONG = 'wrong-key-5555555555555555';
const KEYS = [ALICE, BOB, WRONG];

let harness: TestHarness;
let webUiDir: string;
let browser: Browser;
let page: Page;
/** The page's A2A calls (not the card), in order. */
const calls: Request[] = [];
/** Every console message and uncaught exception of the page. */
const consoleLines: { type: string; text: string }[] = [];
/** Every URL the page showed, hash changes included. */
const urls: string[] = [];

const keyField = () => page.getByLabel('API key');
const connected = () => page.getByText('Connected to a2a-harness with an API key');
const taskRows = () => page.locator('.task-link');
const isFocused = () => keyField().evaluate((element) => element === document.activeElement);

/** The page's storage, as text: to look for a key in it. */
const storageText = (kind: 'localStorage' | 'sessionStorage') =>
  page.evaluate((name) => JSON.stringify({ ...window[name] }), kind);

async function authorizationOf(calls: readonly Request[]): Promise<(string | undefined)[]> {
  return Promise.all(calls.map(async (call) => (await call.allHeaders())['authorization']));
}

async function connectWith(key: string): Promise<void> {
  await keyField().fill(key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await connected().waitFor();
}

beforeAll(async () => {
  webUiDir = await buildWebChat();
  harness = await startHarness({
    webUiDir,
    apiKeys: new ApiKeys(parseApiKeyList(`alice=${ALICE},bob=${BOB}`)),
  });
  browser = await connectChromium();
  page = await newChatPage(browser);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/a2a/')) calls.push(request);
  });
  page.on('console', (message) =>
    consoleLines.push({ type: message.type(), text: message.text() }),
  );
  page.on('pageerror', (error) => consoleLines.push({ type: 'pageerror', text: error.message }));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

describe('an agent that needs an API key', () => {
  it('without a key, the page says the agent needs one and moves focus to the key field; nothing is called', async () => {
    await page.goto(`${harness.url}/ui`);
    const alert = page.getByRole('alert');
    await alert.getByText('This agent needs an API key').waitFor();
    await expect.poll(isFocused).toBe(true);
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await composerOf(page).isDisabled()).toBe(true);
    expect(await keyField().getAttribute('type')).toBe('password');
    expect(await keyField().getAttribute('aria-invalid')).toBe('true');
    // The card asks for a key: the field says so.
    expect(await page.locator('.agent-help').textContent()).toMatch(/^Required\./);
    expect(calls).toEqual([]);
  });

  it('the form with its key field passes an axe scan', async () => {
    expect(await axeViolations(page, '.agent-form')).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('entering the key connects; /help answers with a tagged reply; every call carries the key', async () => {
    await keyField().fill(ALICE);
    await keyField().press('Enter');
    await connected().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    const help = await runCommand(page, 'help');
    expect(await help.locator('.reply-tag').textContent()).toBe('/help');
    expect(await help.textContent()).toContain('/spawn');
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#task=/);
    // A chat holding only commands is not listed until a prompt names it.
    expect(await taskRows().count()).toBe(0);

    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(await authorizationOf(calls))).toEqual(new Set([`Bearer ${ALICE}`]));
    expect(await axeViolations(page, '.agent-form')).toEqual([]);
  });

  it('a reload keeps the key (session storage, not local storage) and the open task', async () => {
    const taskUrl = page.url();
    await page.reload();
    await connected().waitFor();
    expect(page.url()).toBe(taskUrl);
    await cards(page, 'help').first().waitFor();
    expect(await taskRows().count()).toBe(0);
    expect(await storageText('sessionStorage')).toContain(ALICE);
    expect(await storageText('localStorage')).not.toContain(ALICE);
  });

  it('a wrong key is checked when entered and said so, never "Connected"; the draft stays, and is sent once the key is fixed', async () => {
    // On a new chat nothing else is called that the key would fail.
    await page.getByRole('button', { name: 'New chat' }).click();
    const taskUrl = page.url();
    const composer = composerOf(page);
    await composer.fill('hello after a wrong key');
    const before = calls.length;
    await keyField().fill(WRONG);
    await page.getByRole('button', { name: 'Connect' }).click();
    // One cheap call with the key tells it is wrong, before anything is sent.
    const alert = page.getByRole('alert');
    await alert.getByText('The agent refused the API key').waitFor();
    await page.getByText('The agent refused this API key.').waitFor();
    expect(await connected().count()).toBe(0);
    expect(await page.locator('.agent-status--ready').count()).toBe(0);
    expect(page.url()).toBe(taskUrl);
    expect(await composer.inputValue()).toBe('hello after a wrong key');
    expect(await keyField().getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('body').innerText()).not.toContain(WRONG);
    const checked = calls.slice(before);
    expect(checked.length).toBeGreaterThan(0);
    expect(new Set(await authorizationOf(checked))).toEqual(new Set([`Bearer ${WRONG}`]));

    await alert.getByRole('button', { name: 'Change the API key' }).click();
    await expect.poll(isFocused).toBe(true);
    await keyField().fill(ALICE);
    await keyField().press('Enter');
    await connected().waitFor();
    expect(page.url()).toBe(taskUrl);
    expect(await composer.inputValue()).toBe('hello after a wrong key');
    await composer.press('Enter');
    await page.locator('.msg--agent', { hasText: 'offline/echo' }).waitFor();
    expect(await composer.inputValue()).toBe('');
    await expect.poll(() => taskRows().count()).toBe(1);
  });

  it('each key keeps its own open task: switching shows no "Task not found", and switching back reopens it', async () => {
    const aliceTask = page.url();
    // The row shows the task's state: wait for the last answer's turn to end before keeping it.
    await expect
      .poll(async () => (await taskRows().allTextContents()).some((row) => row.endsWith('working')))
      .toBe(false);
    const aliceRows = await taskRows().allTextContents();
    await connectWith(BOB);
    // Bob starts on a new chat, not on Alice's task, which his key may not see.
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('');
    await page.getByText('Chats you start in this browser show up here.').waitFor();
    await composerOf(page).fill('hi from bob');
    await composerOf(page).press('Enter');
    await page.locator('.msg--agent', { hasText: 'offline/echo' }).waitFor();
    await expect
      .poll(() => taskRows().allTextContents())
      .toEqual([expect.stringContaining('hi from bob')]);
    const bobTask = page.url();
    expect(bobTask).not.toBe(aliceTask);

    await connectWith(ALICE);
    await expect.poll(() => page.url()).toBe(aliceTask);
    await page.locator('.msg--user', { hasText: 'hello after a wrong key' }).waitFor();
    await expect.poll(() => taskRows().allTextContents()).toEqual(aliceRows);

    await connectWith(BOB);
    await expect.poll(() => page.url()).toBe(bobTask);
    await page.locator('.msg--user', { hasText: 'hi from bob' }).waitFor();
    expect(await page.getByText('Could not open the task').count()).toBe(0);
    await connectWith(ALICE);
    await expect.poll(() => page.url()).toBe(aliceTask);
  });

  it('"Forget key" forgets it: the page asks for a key again, also after a reload', async () => {
    await page.getByRole('button', { name: 'Forget key' }).click();
    await page.getByRole('alert').getByText('This agent needs an API key').waitFor();
    await expect.poll(isFocused).toBe(true);
    expect(await keyField().inputValue()).toBe('');
    expect(await storageText('sessionStorage')).not.toContain(ALICE);

    await page.reload();
    await page.getByRole('alert').getByText('This agent needs an API key').waitFor();
  });

  it('no key ever showed in the page, its URLs or its console; the only console errors are the 401s', async () => {
    expect(urls.length).toBeGreaterThan(3);
    const text = [
      await page.locator('body').innerText(),
      ...urls,
      ...consoleLines.map((line) => line.text),
    ].join('\n');
    for (const key of KEYS) expect(text).not.toContain(key);
    const unexpected = consoleLines.filter(
      (line) =>
        (line.type === 'error' || line.type === 'pageerror') &&
        !/status of 401 \(Unauthorized\)/.test(line.text),
    );
    expect(unexpected).toEqual([]);
  });
});
