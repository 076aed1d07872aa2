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
    include: postgresTestFiles(),
    globalSetup: ['../testing/src/postgres-setup.ts', harnessCliSetup],
    setupFiles: ['../testing/src/postgres-ready.ts'],
    ...harnessTimeouts,
  },
});
