import { defineProject } from 'vitest/config';
import {
  harnessCliSetup,
  harnessProjectBase,
  harnessTimeouts,
  postgresTestFiles,
} from './vitest.shared.js';

/**
 * The files of test/ that use PostgreSQL. Only this project starts the
 * throwaway cluster, once per run and without holding up the other projects;
 * each of its files waits for the cluster in postgres-ready.
 */
export default defineProject({
  ...harnessProjectBase,
  test: {
    name: 'integration:harness-postgres',
    // As in integration:harness: a worker imports the harness once, not once a
    // file (the project's summed import time fell from 57 s to 18 s).
    isolate: false,
    include: postgresTestFiles(),
    globalSetup: ['../testing/src/postgres-setup.ts', harnessCliSetup],
    setupFiles: ['../testing/src/postgres-ready.ts'],
    ...harnessTimeouts,
  },
});
