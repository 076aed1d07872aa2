/*
 * The Chromium that tests drive headless. `CHROMIUM_PATH` names one; else
 * Debian's headless shell when it is installed, else Debian's browser. The
 * headless shell is the same Chromium build without the browser's own layers,
 * and what Playwright itself runs for headless pages: the web chat's
 * end-to-end files took about 30% less CPU with it. The path is the binary's,
 * not Debian's /usr/bin wrapper, which runs it as a child: a test that kills
 * the browser must kill the browser.
 */
import { existsSync } from 'node:fs';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const BROWSER = '/usr/bin/chromium';

/** The executable to launch. */
export function chromiumPath(): string {
  const named = process.env['CHROMIUM_PATH'];
  if (named) return named;
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : BROWSER;
}

/** Flags for a test browser: no sandbox (root in CI), no GPU, and nothing that calls out. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
