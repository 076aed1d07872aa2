/**
 * Vitest global setup of the projects whose tests start the workspace's bins
 * or install its packages: makes the run's folder and bundles the bins into
 * it once (see test-run.ts and test-bins.ts). Packing happens later, on the
 * first test that asks for it (run-packs.ts). Several projects name this
 * setup; the first builds, the others wait for that build.
 */
import { binPath, buildTestBins } from './test-bins.js';
import { createTestRun, TEST_RUN_ENV, type TestRun } from './test-run.js';
import { HARNESS_CLI_ENV } from './harness-cli.js';

const SHARED = Symbol.for('a2a-testing.test-run');
type Shared = { [SHARED]?: Promise<TestRun> };

export default async function setup(): Promise<(() => void) | undefined> {
  const shared = globalThis as Shared;
  if (shared[SHARED]) {
    await shared[SHARED];
    return undefined;
  }
  const building = (async () => {
    const run = createTestRun();
    try {
      await buildTestBins(run.dir);
    } catch (error) {
      run.remove();
      throw error;
    }
    return run;
  })();
  shared[SHARED] = building;
  const run = await building;
  process.env[TEST_RUN_ENV] = run.dir;
  process.env[HARNESS_CLI_ENV] = binPath(run.dir, 'a2a-harness');
  return () => {
    delete shared[SHARED];
    delete process.env[TEST_RUN_ENV];
    delete process.env[HARNESS_CLI_ENV];
    run.remove();
  };
}
