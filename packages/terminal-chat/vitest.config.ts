import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'terminal-chat',
    include: ['src/**/*.test.ts'],
    // Those start processes: vitest.integration.config.ts runs them.
    exclude: ['**/node_modules/**', '**/*.int.test.ts'],
    // Property tests run thousands of cases (bounded by count, not time), and
    // other files run beside them: vitest's 5 s default is for an idle machine.
    testTimeout: 30_000,
  },
});
