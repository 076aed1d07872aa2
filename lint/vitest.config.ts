import { defineProject } from 'vitest/config';

/** The repository's own lint rules. */
export default defineProject({
  test: {
    name: 'lint',
    include: ['**/*.test.ts'],
    // ESLint loads the whole configuration and its plugins on first use.
    testTimeout: 60_000,
  },
});
