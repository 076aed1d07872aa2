import { defineProject } from 'vitest/config';
import { harnessProjectBase, harnessTimeouts } from './vitest.shared.js';

/** The harness's tests beside the code; test/ is in vitest.server.config.ts and vitest.postgres.config.ts. */
export default defineProject({
  ...harnessProjectBase,
  test: {
    name: 'harness',
    include: ['src/**/*.test.ts'],
    ...harnessTimeouts,
  },
});
