/**
 * Global setup of the end-to-end project: starts the run's one Chromium
 * (see shared-chromium.ts) and closes it after the last file. If Chromium
 * exits before then, the run says so; the files still running fail on their
 * next browser call, and later ones on connecting.
 *
 * It also starts the web chat's build, without waiting for it: the files wait
 * for it under its lock (web-build.ts), and until they start, their workers
 * run other projects' files. Built by the first file instead, it held every
 * end-to-end file that started meanwhile, each one a worker doing nothing.
 */
import type { TestProject } from 'vitest/node';
import { holdTestRun } from 'a2a-testing/test-run';
import { CHROMIUM_ENDPOINT, launchChromiumServer } from './shared-chromium.js';
import { buildWebChat } from './web-build.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Chromium's profile goes in the run's folder, which stays until Chromium has closed.
  const run = holdTestRun();
  // A failed build fails again, with its message, in the first file that waits for it.
  const building = buildWebChat().catch(() => undefined);
  const server = await launchChromiumServer();
  let closing = false;
  server.process().once('exit', (code, signal) => {
    if (!closing)
      console.error(`The shared Chromium exited during the run (code ${code}, signal ${signal})`);
  });
  project.provide(CHROMIUM_ENDPOINT, server.wsEndpoint());
  return async () => {
    closing = true;
    await Promise.all([server.close(), building]);
    run.release();
  };
}
