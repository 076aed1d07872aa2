import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './vitest.sequencer.js';

/**
 * Every package's tests. The harness splits into three projects (see
 * packages/harness/vitest.shared.ts), bench holds the soak and lint the
 * repository's own ESLint rules. Which files are unit tests and which are
 * integration tests is in the README.
 */
export default defineConfig({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    projects: ['packages/*', 'packages/*/vitest.*.config.ts', 'bench', 'lint'],
    // Most files wait on servers, child processes and timers rather than the
    // CPU, so more files than cores run at once; vitest's default on a
    // 2-core machine is one at a time. On an idle 2-core machine, from a
    // clean clone: three at once took 380 s with the CPU busy 65% of the time,
    // four 337 s (74%), six 299 s (78%). More workers cost more imports (each
    // loads its project's modules once: 113 s of import time with four, 214 s
    // with six), which is why the gain shrinks. The tests wait on conditions,
    // not on time, so the busier machine is theirs to bear.
    maxWorkers: 6,
    sequence: { sequencer: LongestFirstSequencer },
    // The run's own temporary folder, for every run: what tests leave in the
    // temporary folder goes with the run (a2a-testing's test-run.ts).
    globalSetup: ['packages/testing/src/test-run-folder-setup.ts'],
  },
});
