import { defineProject } from 'vitest/config';
import {
  harnessCliSetup,
  harnessProjectBase,
  harnessTimeouts,
  postgresTestFiles,
} from './vitest.shared.js';

/** The files of test/ that start the harness and need no PostgreSQL. */
export default defineProject({
  ...harnessProjectBase,
  test: {
    name: 'integration:harness',
    // Files share a worker's modules instead of importing the harness again
    // each (the import time of a batch of these files fell from 75 s to 21 s);
    // none changes global state another file reads.
    isolate: false,
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...postgresTestFiles()],
    globalSetup: [harnessCliSetup],
    ...harnessTimeouts,
  },
});
