import { defineProject } from 'vitest/config';

/** The soak's own test: bounded by its actions, it runs beside the other projects. */
export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'integration:bench',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'results/**'],
    // The soak starts the harness CLI: bundled once for the run.
    globalSetup: ['../packages/testing/src/test-run-setup.ts'],
    testTimeout: 180_000,
  },
});
