/*
 * What the end-to-end files share: the build the harness serves at /ui (made
 * in a temporary folder, not in the working tree), the run's one Chromium,
 * its pages, screenshots when asked for, axe scans, and the composer's commands.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { AxeBuilder } from '@axe-core/playwright';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { build } from 'vite';
import { expect, inject } from 'vitest';
import { CHROMIUM_ENDPOINT } from './shared-chromium.js';

export const WEB_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** One per checkout, shared by the end-to-end files and kept between runs while it is up to date. */
const BUILD_ID = createHash('sha256').update(WEB_ROOT).digest('hex').slice(0, 12);
const DIST = path.join(os.tmpdir(), `a2a-web-e2e-${BUILD_ID}`);
/** Written after a build made here; `vite build` empties its folder, so a failed build leaves none. */
const STAMP = path.join(DIST, '.e2e-build');
/** What the build is made from; `a2a-commands` is bundled from its source. */
const SOURCES = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
  '../commands/src',
  '../../package-lock.json',
].map((source) => path.resolve(WEB_ROOT, source));

const LOCK = path.join(os.tmpdir(), `a2a-web-build-${BUILD_ID}.lock`);
/** A lock older than this was left by a run that died. */
const STALE_LOCK_MS = 5 * 60_000;

/** The newest modification time under `file` (directories count: a deleted file changes them). */
function newestChange(file: string): number {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(file).reduce(
    (newest, name) => Math.max(newest, newestChange(path.join(file, name))),
    stat.mtimeMs,
  );
}

function isUpToDate(): boolean {
  if (!existsSync(STAMP)) return false;
  return statSync(STAMP).mtimeMs >= Math.max(...SOURCES.map(newestChange));
}

/** Runs `work` while holding a lock shared by every test process on this machine. */
async function withBuildLock(work: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 3 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`Timed out waiting for the build lock ${LOCK}`);
    else await sleep(100);
  }
  try {
    await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * What `npm run build` does for this package, into a temporary folder; its
 * path, for the harness's `webUiDir`. The end-to-end files run in parallel
 * and all need it, so one builds while the others wait, and a build newer
 * than every source is used as it is: rebuilding would empty the folder under
 * a page another file is loading.
 */
export async function buildWebChat(): Promise<string> {
  await withBuildLock(async () => {
    if (isUpToDate()) return;
    await build({
      configFile: path.join(WEB_ROOT, 'vite.config.ts'),
      root: WEB_ROOT,
      logLevel: 'warn',
      mode: 'production',
      build: { outDir: DIST, emptyOutDir: true },
    });
    mkdirSync(DIST, { recursive: true });
    writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  });
  return DIST;
}

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
