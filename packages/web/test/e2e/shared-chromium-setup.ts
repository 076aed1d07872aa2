/**
 * Global setup of the end-to-end project: starts the run's one Chromium
 * (see shared-chromium.ts) and closes it after the last file. If Chromium
 * exits before then, the run says so; the files still running fail on their
 * next browser call, and later ones on connecting.
 */
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ENDPOINT, launchChromiumServer } from './shared-chromium.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await launchChromiumServer();
  let closing = false;
  server.process().once('exit', (code, signal) => {
    if (!closing)
      console.error(`The shared Chromium exited during the run (code ${code}, signal ${signal})`);
  });
  project.provide(CHROMIUM_ENDPOINT, server.wsEndpoint());
  return async () => {
    closing = true;
    await server.close();
  };
}
