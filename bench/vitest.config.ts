import { defineProject } from 'vitest/config';

/**
 * The soak's own test. It puts 32 clients of load on the machine, so it runs
 * after every other project has finished (a later group), alone.
 */
export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'integration:bench',
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'results/**'],
    sequence: { groupOrder: 1 },
    // The soak starts the harness CLI: bundled once for the run.
    globalSetup: ['../packages/testing/src/test-run-setup.ts'],
    testTimeout: 180_000,
  },
});
