// @vitest-environment node
/**
 * Argument completion in the web chat, end to end: the built app served by a
 * real harness (a fake OpenAI-compatible server behind it, two models), in
 * Debian's Chromium. `/model ` offers the caller's models with their
 * provider; Tab takes one; Enter then runs the command with it.
 */
import { requestCompletion, readCompletion } from 'a2a-commands/client/completion';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from 'a2a-testing/fake-openai';
import { startHarness, type TestHarness } from 'a2a-testing/harness';
import { PAUSE_MS } from '../../src/state/use-argument-values.js';
import {
  afterPageTimers,
  axeViolations,
  buildWebChat,
  cards,
  composerOf,
  connectChromium,
  newChatPage,
} from './support.js';

let fake: FakeOpenAI;
let harness: TestHarness;
let webUiDir: string;
let browser: Browser;
let page: Page;
/** What the agent offers first for `/model `. */
let firstModel: string;

beforeAll(async () => {
  webUiDir = await buildWebChat();
  fake = await startFakeOpenAI({ models: ['gpt-fast', 'gpt-smart'], reply: () => 'ok' });
  harness = await startHarness({
    webUiDir,
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl },
  });
  browser = await connectChromium();
  page = await newChatPage(browser);
  await page.goto(`${harness.url}/ui`);
  await page.getByText('Connected to a2a-harness').waitFor();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
  await fake?.close();
});

const valuesOf = (page: Page) => page.getByRole('listbox', { name: 'Values for model' });

it('"/model " offers the models with their provider, from the agent', async () => {
  const card = await (await fetch(`${harness.url}/.well-known/agent-card.json`)).json();
  const { values } = await requestCompletion(readCompletion(card)!.endpoint, {
    command: 'model',
    argument: { index: 0, value: '' },
  });
  expect(values.map((v) => v.value)).toEqual(
    expect.arrayContaining(['openai/gpt-fast', 'openai/gpt-smart']),
  );

  const composer = composerOf(page);
  await composer.click();
  await composer.pressSequentially('/model ');
  const listbox = valuesOf(page);
  await listbox.waitFor();
  expect(await composer.getAttribute('aria-expanded')).toBe('true');
  expect(await composer.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
  const options = listbox.getByRole('option');
  expect(await options.locator('.slash-name').allTextContents()).toEqual(
    values.map((v) => v.value),
  );
  expect(await options.first().locator('.slash-desc').textContent()).toBe(values[0]!.description);
  expect(await axeViolations(page, '.composer')).toEqual([]);
  firstModel = values[0]!.value;
});

it('Tab takes the active value; typing narrows the values first', async () => {
  const composer = composerOf(page);
  await composer.press('Tab');
  expect(await composer.inputValue()).toBe(`/model ${firstModel}`);

  await composer.fill('');
  await composer.pressSequentially('/model openai/gpt-sm');
  const options = valuesOf(page).getByRole('option');
  await expect
    .poll(() => options.locator('.slash-name').allTextContents())
    .toEqual(['openai/gpt-smart']);
  await composer.press('Tab');
  expect(await composer.inputValue()).toBe('/model openai/gpt-smart');

  await composer.press('Enter');
  const reply = cards(page, 'model').first();
  await reply.waitFor();
  expect(await reply.textContent()).toContain('Model set to openai/gpt-smart');
});

it('Escape closes the values; commands without values show only the hint', async () => {
  const composer = composerOf(page);
  await composer.fill('');
  await composer.pressSequentially('/help ');
  const help = page.getByRole('listbox', { name: 'Values for command' });
  await help.waitFor();
  await composer.press('Escape');
  await help.waitFor({ state: 'detached' });

  await composer.fill('');
  await composer.pressSequentially('/title ');
  const hint = page.getByTestId('argument-hint');
  await hint.waitFor();
  expect(await hint.locator('.ghost-hint').textContent()).toBe('[<title>]');
  // The page asks for values once typing pauses: with that pause run out, /title offers nothing.
  await afterPageTimers(page, PAUSE_MS);
  expect(await page.getByRole('listbox').count()).toBe(0);
});
