import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'testing',
    include: ['test/**/*.test.ts'],
    // Loading every project's configuration takes a few seconds, more on a loaded machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
