import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'chat-core',
    // Files share a worker's modules instead of importing everything again
    // (a third to a half of the CPU these files take); none changes global
    // state another file reads. Not for terminal-chat or web, whose files do.
    isolate: false,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Property tests run thousands of cases (bounded by count, not time), and
    // other files run beside them: vitest's 5 s default is for an idle machine.
    testTimeout: 30_000,
  },
});
