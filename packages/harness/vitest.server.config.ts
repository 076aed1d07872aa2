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
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...postgresTestFiles()],
    globalSetup: [harnessCliSetup],
    ...harnessTimeouts,
  },
});
