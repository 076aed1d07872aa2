import { defineProject } from 'vitest/config';

/**
 * The files that start processes: they run the package's bins bundled once
 * for the run by the global setup, and so are kept out of the unit project.
 */
export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'integration:acp',
    // As in the unit project: files share a worker's modules.
    isolate: false,
    include: ['test/**/*.int.test.ts'],
    globalSetup: ['../testing/src/test-run-setup.ts'],
    // The bridge runs as a child process, beside other files' processes.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
