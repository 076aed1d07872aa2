/**
 * Vitest global setup of the projects whose tests start the workspace's bins
 * or install its packages: holds the run's folder and bundles the bins into
 * it once (see test-run.ts and test-bins.ts). Packing happens later, on the
 * first test that asks for it (run-packs.ts). Several projects name this
 * setup; the first builds, the others wait for that build.
 */
import { binPath, buildTestBins } from './test-bins.js';
import { holdTestRun } from './test-run.js';
import { HARNESS_CLI_ENV } from './harness-cli.js';

const SHARED = Symbol.for('a2a-testing.test-bins');
type Shared = { [SHARED]?: Promise<void> };

export default async function setup(): Promise<() => void> {
  const run = holdTestRun();
  const shared = globalThis as Shared;
  if (shared[SHARED]) {
    await shared[SHARED].catch((error: unknown) => {
      run.release();
      throw error;
    });
    return run.release;
  }
  const building = buildTestBins(run.dir);
  shared[SHARED] = building;
  try {
    await building;
  } catch (error) {
    delete shared[SHARED];
    run.release();
    throw error;
  }
  process.env[HARNESS_CLI_ENV] = binPath(run.dir, 'a2a-harness');
  return () => {
    delete shared[SHARED];
    delete process.env[HARNESS_CLI_ENV];
    run.release();
  };
}
