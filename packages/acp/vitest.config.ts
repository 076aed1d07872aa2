import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'acp',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The end-to-end tests start the bridge as a child process, from source.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
