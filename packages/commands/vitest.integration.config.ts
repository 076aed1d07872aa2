import { defineProject } from 'vitest/config';

/**
 * The files that start processes: they run the package's bins bundled once
 * for the run by the global setup, and so are kept out of the unit project.
 */
export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'integration:commands',
    // As in the unit project: files share a worker's modules.
    isolate: false,
    include: ['test/**/*.int.test.ts'],
    globalSetup: ['../testing/src/test-run-setup.ts'],
    // Agents on loopback and compiles, with other files running beside them.
    testTimeout: 60_000,
  },
});
