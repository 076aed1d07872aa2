import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

/**
 * Unit and component tests run in jsdom. The end-to-end tests (test/e2e) say
 * `@vitest-environment node`: they build the app, start a harness and drive
 * Chromium.
 */
export default defineProject({
  plugins: [react()],
  resolve: { conditions: ['a2a-source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['a2a-source', ...defaultServerConditions] } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['vitest.setup.ts'],
    // Chromium and jsdom with other files running beside them.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
