import { defineProject } from 'vitest/config';

/**
 * The files that start processes: they run the `a2a-chat` bin bundled once
 * for the run by the global setup, and so are kept out of the unit project.
 */
export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'integration:terminal-chat',
    include: ['src/**/*.int.test.ts'],
    globalSetup: ['../testing/src/test-run-setup.ts'],
    testTimeout: 30_000,
  },
});
