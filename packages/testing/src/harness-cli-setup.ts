/**
 * Vitest global setup of the projects that start the harness CLI: bundles it
 * once for the run (see harness-cli.ts). The test processes, started after
 * this, inherit its path through the environment. Several projects name this
 * setup; the first builds, the others wait for that build.
 */
import { buildHarnessCli, HARNESS_CLI_ENV, type HarnessCliBundle } from './harness-cli.js';

const SHARED = Symbol.for('a2a-testing.harness-cli-bundle');
type Shared = { [SHARED]?: Promise<HarnessCliBundle> };

export default async function setup(): Promise<(() => void) | undefined> {
  const shared = globalThis as Shared;
  if (shared[SHARED]) {
    await shared[SHARED];
    return undefined;
  }
  const building = buildHarnessCli();
  shared[SHARED] = building;
  const bundle = await building;
  process.env[HARNESS_CLI_ENV] = bundle.main;
  return () => {
    delete shared[SHARED];
    delete process.env[HARNESS_CLI_ENV];
    bundle.remove();
  };
}
