import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'commands',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Agents on loopback and compiles, with other files running beside them.
    testTimeout: 60_000,
  },
});
