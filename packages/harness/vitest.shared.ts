/**
 * What the harness's two test projects share. `harness` holds the tests beside
 * the code (src/), `integration:harness` those of test/, where every file
 * starts the harness.
 */
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

export const harnessProjectBase = {
  root,
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
} as const;

/**
 * Servers, child processes and model turns, with other files running beside
 * them on a 2-core machine: bounds for a hang, not a speed target.
 */
export const harnessTimeouts = { testTimeout: 60_000, hookTimeout: 120_000 } as const;

/**
 * Bundles the harness CLI once for the run: files that start it as a process
 * spawn plain node on the bundle instead of compiling the sources in each start.
 */
export const harnessCliSetup = '../testing/src/harness-cli-setup.ts';

/** Starts the throwaway PostgreSQL cluster for the run, when a file first asks for it. */
export const postgresSetup = '../testing/src/postgres-setup.ts';
