import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

/**
 * The web chat end to end: each file builds the app (once for all of them,
 * see test/e2e/support.ts), starts a harness and drives the run's one
 * Chromium, which the global setup starts and every file connects to.
 */
export default defineProject({
  resolve: { conditions: ['a2a-source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['a2a-source', ...defaultServerConditions] } },
  test: {
    name: 'integration:web',
    environment: 'node',
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/shared-chromium-setup.ts'],
    // A worker keeps the modules it loaded for its next file: the harness,
    // compiled from source, loads once a worker instead of once a file. Every
    // file starts its own harness and contexts, so no test state carries over.
    isolate: false,
    // Chromium, a harness and a model server, with other files running beside them.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
