import { defineProject } from 'vitest/config';
import {
  harnessCliSetup,
  harnessProjectBase,
  harnessTimeouts,
  postgresSetup,
} from './vitest.shared.js';

/**
 * The files of test/: each starts the harness. The throwaway PostgreSQL
 * cluster starts when the first file that uses it asks (a2a-testing/stores
 * and a2a-testing/databases do), once for the run.
 */
export default defineProject({
  ...harnessProjectBase,
  test: {
    name: 'integration:harness',
    // Files share a worker's modules instead of importing the harness again
    // each (the import time of a batch of these files fell from 75 s to 21 s);
    // none changes global state another file reads.
    isolate: false,
    include: ['test/**/*.test.ts'],
    globalSetup: [postgresSetup, harnessCliSetup],
    ...harnessTimeouts,
  },
});
