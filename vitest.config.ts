import { defineConfig } from 'vitest/config';

/**
 * Every package's tests; the harness splits into three projects (see
 * packages/harness/vitest.shared.ts) and bench holds the soak. Which files
 * are unit tests and which integration tests is in the README.
 */
export default defineConfig({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    projects: ['packages/*', 'packages/harness/vitest.*.config.ts', 'bench'],
    // Most files wait on servers, child processes and timers rather than the
    // CPU, so more files than cores run at once; vitest's default on a
    // 2-core machine is one at a time.
    maxWorkers: 4,
  },
});
