// @vitest-environment node
/**
 * SEMANTICS §9 in the web chat, end to end: a harness with keys for alice and
 * bob and a custom command for alice only, the built app at /ui, two browser
 * contexts in Debian's Chromium (playwright-core). Each sees their own
 * commands in the `/` menu; /deploy runs for alice and reaches the model as
 * text for bob; a command file added later shows beside alice's own.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTwoPrincipalHarness, type TwoPrincipalHarness } from 'a2a-testing/two-principals';
import { buildWebChat, composerOf, connectChromium, newChatPage, runCommand } from './support.js';

let harness: TwoPrincipalHarness;
let browser: Browser;

/** `query` is added to `/ui`'s URL. */
async function chatAs(key: string, query = ''): Promise<Page> {
  const page = await newChatPage(browser);
  await page.goto(`${harness.url}/ui${query}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByText('Connected to a2a-harness with an API key').waitFor();
  return page;
}

async function menuNames(page: Page): Promise<string[]> {
  const composer = composerOf(page);
  await composer.fill('');
  await composer.press('/');
  const listbox = page.getByRole('listbox', { name: 'Commands' });
  await listbox.waitFor();
  const names = await listbox.getByRole('option').locator('.slash-name').allTextContents();
  await composer.fill('');
  return names;
}

beforeAll(async () => {
  const webUiDir = await buildWebChat();
  harness = await startTwoPrincipalHarness({ webUiDir });
  browser = await connectChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.stop();
});

it('each principal sees their own commands; /deploy runs for one and is text for the other', async () => {
  const alice = await chatAs(harness.keys.alice);
  const bob = await chatAs(harness.keys.bob);
  expect(await menuNames(alice)).toContain('/deploy');
  const bobs = await menuNames(bob);
  expect(bobs).toContain('/help');
  expect(bobs).not.toContain('/deploy');

  const reply = await runCommand(alice, 'deploy', 'web');
  expect(await reply.locator('.reply-tag').textContent()).toBe('/deploy');

  const composer = composerOf(bob);
  await composer.fill('/deploy web');
  await composer.press('Enter');
  // The model's echo; the sent line's own bubble also reads "You said: /deploy web" to a screen reader.
  await bob.locator('p', { hasText: 'You said: /deploy web' }).waitFor();
  expect(await bob.locator('article.reply[data-command="deploy"]').count()).toBe(0);
}, 120_000);

it("a command file added later shows beside the caller's own", async () => {
  // `?refresh=1`: the card is read again every second (12 s by default).
  const alice = await chatAs(harness.keys.alice, '?refresh=1');
  harness.addCommand('notes', 'Notes');
  await expect.poll(() => menuNames(alice), { timeout: 20_000 }).toContain('/notes');
  expect(await menuNames(alice)).toContain('/deploy');
}, 120_000);
