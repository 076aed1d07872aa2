/*
 * One Chromium for the whole run of the end-to-end files: the project's
 * global setup (shared-chromium-setup.ts) starts it as a browser server, and
 * each file connects and opens its own contexts. Starting Chromium once
 * instead of once a file saves a launch and a browser's start-up work a file.
 * This module is loaded by the setup, outside the test processes: it must not
 * import vitest's test API.
 */
import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from 'a2a-testing/chromium';

/** The key under which the global setup provides the server's WebSocket endpoint. */
export const CHROMIUM_ENDPOINT = 'sharedChromiumEndpoint';

declare module 'vitest' {
  export interface ProvidedContext {
    [CHROMIUM_ENDPOINT]: string;
  }
}

/** Debian's Chromium, headless (a2a-testing/chromium), as a server that test processes connect to. */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
}
