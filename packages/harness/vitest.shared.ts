/**
 * What the harness's three test projects share, and which files use
 * PostgreSQL. `harness` holds the tests beside the code (src/), and
 * `integration:harness` and `integration:harness-postgres` split test/, where every file
 * starts the harness. A file of test/ that imports the PostgreSQL helpers
 * (a2a-testing/stores or a2a-testing/databases) runs in `integration:harness-postgres`,
 * the only project that starts the throwaway cluster.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
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

/** Reads an import of the PostgreSQL helpers, under their old or new path, or the provided URL. */
const USES_POSTGRES = /from\s+['"][^'"]*\/(stores|databases)(\.js)?['"]|['"]postgresUrl['"]/;

/** The test files of test/ that use PostgreSQL, relative to the package. */
export function postgresTestFiles(): string[] {
  return readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => path.posix.join('test', file.split(path.sep).join('/')))
    .filter((file) => USES_POSTGRES.test(readFileSync(path.join(root, file), 'utf8')));
}
