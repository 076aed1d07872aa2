import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'commands',
    // Files share a worker's modules instead of importing everything again
    // (a third to a half of the CPU these files take); none changes global
    // state another file reads. Not for terminal-chat or web, whose files do.
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Those start processes: vitest.integration.config.ts runs them.
    exclude: ['**/node_modules/**', '**/*.int.test.ts'],
    // Agents on loopback and compiles, with other files running beside them.
    testTimeout: 60_000,
  },
});
