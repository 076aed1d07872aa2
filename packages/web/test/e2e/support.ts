/*
 * What the end-to-end files share: the build the harness serves at /ui
 * (web-build.ts), the run's one Chromium, its pages, screenshots when asked
 * for, axe scans, and the composer's commands.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { expect, inject } from 'vitest';
import { CHROMIUM_ENDPOINT } from './shared-chromium.js';
import { WEB_ROOT } from './web-build.js';

export { buildWebChat, WEB_ROOT } from './web-build.js';

/**
 * The run's shared Chromium, connected for this file. A browser that is gone
 * (crashed, or killed) fails the connect at once with a message naming it,
 * rather than leaving the file waiting.
 */
export async function connectChromium(endpoint = inject(CHROMIUM_ENDPOINT)): Promise<Browser> {
  if (!endpoint) {
    throw new Error(
      `No shared Chromium: run the end-to-end files in their project (packages/web/vitest.e2e.config.ts), whose global setup starts it`,
    );
  }
  try {
    return await chromium.connect(endpoint, { timeout: 30_000 });
  } catch (error) {
    throw new Error(`The run's shared Chromium at ${endpoint} did not answer: ${String(error)}`, {
      cause: error,
    });
  }
}

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/**
 * A context for the chat: at desktop size unless `options` say otherwise, and
 * always with reduced motion, so no step waits out a transition or an
 * animation (app.css turns them off for it).
 */
export function newChatContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  return browser.newContext({ ...DESKTOP, ...options, reducedMotion: 'reduce' });
}

/** A page in a context of its own (see newChatContext): close its context when done. */
export async function newChatPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<Page> {
  return (await newChatContext(browser, options)).newPage();
}

/**
 * Where screenshots go, if anywhere: the folder SCREENSHOTS_DIR names, or
 * docs/ (the README's pictures) with UPDATE_SCREENSHOTS=1. Unasked, none are
 * taken: encoding them is work no assertion reads.
 */
const SCREENSHOTS = process.env['SCREENSHOTS_DIR']
  ? path.resolve(process.env['SCREENSHOTS_DIR'])
  : process.env['UPDATE_SCREENSHOTS']
    ? path.resolve(WEB_ROOT, '../../docs')
    : undefined;

/** Saves the page as `name` where screenshots go, when they are asked for. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, name) });
}

/**
 * Axe violations, as readable lines: every serious or critical one, and any
 * other except one known trade-off. The composer is a `<textarea>` with
 * `role="combobox"` (a multi-line input with the APG combobox pattern), which
 * axe's best-practice rule `aria-allowed-role` flags as minor.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  // The chat has no frames, so one axe.run in the page finds what the default
  // (a partial run per frame, finished in a new blank page) finds, in under half the time.
  let builder = new AxeBuilder({ page }).setLegacyMode(true);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const knownTradeOff = (id: string, html: string) =>
    id === 'aria-allowed-role' && /^<textarea [^>]*class="composer-input"/.test(html);
  return violations.flatMap((violation) => {
    const serious = violation.impact === 'serious' || violation.impact === 'critical';
    return violation.nodes
      .filter((node) => serious || !knownTradeOff(violation.id, node.html))
      .map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}`);
  });
}

/**
 * Resolves once the page has run every timer of at most `ms` it set before
 * this call, and what they queued: timers of equal delay run in the order they
 * were set, and a message posted from ours runs after the messages posted
 * before it, React's render among them. For "nothing appears" after a delay
 * the page itself waits out, such as a debounce.
 */
export function afterPageTimers(page: Page, ms: number): Promise<void> {
  return page.evaluate(
    (delay) =>
      new Promise<void>((resolve) => {
        setTimeout(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }, delay);
      }),
    ms,
  );
}

export const composerOf = (page: Page) => page.getByRole('combobox', { name: 'Message' });
export const cards = (page: Page, command: string) =>
  page.locator(`article.reply[data-command="${command}"]`);

/**
 * Types a command through the menu: the whole name, then Enter, which sends a
 * name typed in full; with arguments, Tab takes the entry and the arguments
 * follow before Enter.
 */
export async function runCommand(page: Page, name: string, args = ''): Promise<Locator> {
  const before = await cards(page, name).count();
  const composer = composerOf(page);
  await composer.fill('');
  await composer.pressSequentially(`/${name}`);
  await page.getByRole('listbox', { name: 'Commands' }).waitFor();
  if (args) {
    await composer.press('Tab');
    await expect.poll(() => composer.inputValue()).toBe(`/${name} `);
    await composer.pressSequentially(args);
  }
  await composer.press('Enter');
  const card = cards(page, name).nth(before);
  await card.waitFor();
  return card;
}
