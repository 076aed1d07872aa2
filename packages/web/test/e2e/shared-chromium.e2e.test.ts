// @vitest-environment node
/**
 * The run's shared Chromium, when it dies: a file using it fails at once with
 * a message naming the closed browser, and a file connecting later is told
 * the browser did not answer or fails its first call; neither waits out its
 * timeout. A private
 * browser server stands in for the shared one, so the other files keep theirs.
 */
import { afterAll, expect, it } from 'vitest';
import type { BrowserServer } from 'playwright-core';
import { launchChromiumServer } from './shared-chromium.js';
import { connectChromium, newChatPage } from './support.js';

let server: BrowserServer | undefined;

afterAll(async () => {
  await server?.close();
});

it('a browser killed under a page fails its next call and the next connect, clearly', async () => {
  server = await launchChromiumServer();
  const endpoint = server.wsEndpoint();
  const browser = await connectChromium(endpoint);
  const page = await newChatPage(browser);
  await page.setContent('<p>before</p>');
  const disconnected = new Promise<void>((resolve) =>
    browser.once('disconnected', () => resolve()),
  );

  server.process().kill('SIGKILL');
  await disconnected;
  await expect(page.setContent('<p>after</p>')).rejects.toThrow(/closed/);
  // The endpoint may still take the connection for a moment: then the first call fails instead.
  const later = connectChromium(endpoint).then((again) => again.newPage());
  await expect(later).rejects.toThrow(/shared Chromium .* did not answer|closed/);
});
