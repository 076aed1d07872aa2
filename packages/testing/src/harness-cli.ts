/**
 * The harness CLI that tests start: the `a2a-harness` bin of the run's bundle
 * (test-bins.ts), under the names harness tests already use.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { binPath, buildTestBins } from './test-bins.js';
import { createTestRun } from './test-run.js';

/** Set by the global setup (test-run-setup.ts) for the test processes: the bundle's main file. */
export const HARNESS_CLI_ENV = 'A2A_TEST_HARNESS_CLI';

export interface HarnessCliBundle {
  /** The CLI's entry, run with plain `node`. */
  main: string;
  remove(): void;
}

/** Bundles the bins into a folder of their own, apart from any run's. */
export async function buildHarnessCli(): Promise<HarnessCliBundle> {
  const run = createTestRun();
  try {
    await buildTestBins(run.dir);
  } catch (error) {
    run.remove();
    throw error;
  }
  return { main: binPath(run.dir, 'a2a-harness'), remove: run.remove };
}

/** The main file of the global setup's bundle, for callers that can't wait for a build. */
export function bundledHarnessCli(): string {
  const provided = process.env[HARNESS_CLI_ENV];
  if (!provided) {
    throw new Error(
      `${HARNESS_CLI_ENV} is not set: run this test in a project whose global setup is a2a-testing's test-run-setup.ts`,
    );
  }
  return provided;
}

/**
 * The model stream worker of the global setup's bundle, when there is one: an
 * in-process harness starts it instead of compiling the worker's sources again.
 */
export function bundledStreamWorker(): URL | undefined {
  const main = process.env[HARNESS_CLI_ENV];
  return main ? pathToFileURL(path.join(path.dirname(main), 'stream-worker.js')) : undefined;
}

let ownBundle: Promise<HarnessCliBundle> | undefined;

/**
 * The main file of the bundled CLI: the global setup's, or else (a run without
 * it, such as the soak outside vitest) one built now for this process.
 */
export async function harnessCliMain(): Promise<string> {
  const provided = process.env[HARNESS_CLI_ENV];
  if (provided) return provided;
  ownBundle ??= buildHarnessCli().then((bundle) => {
    process.once('exit', () => bundle.remove());
    return bundle;
  });
  return (await ownBundle).main;
}
