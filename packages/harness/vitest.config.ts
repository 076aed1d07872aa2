import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'harness',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['../testing/src/postgres-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
