import { defineProject } from 'vitest/config';
import { harnessProjectBase, harnessTimeouts } from './vitest.shared.js';

/** The harness's tests beside the code; test/ is in vitest.server.config.ts. */
export default defineProject({
  ...harnessProjectBase,
  test: {
    name: 'harness',
    // Files share a worker's modules instead of importing everything again
    // (a third to a half of the CPU these files take); none changes global
    // state another file reads. Not for terminal-chat or web, whose files do.
    isolate: false,
    include: ['src/**/*.test.ts'],
    ...harnessTimeouts,
  },
});
