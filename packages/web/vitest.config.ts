import react from '@vitejs/plugin-react';
import { configDefaults, defineProject } from 'vitest/config';
import { defaultClientConditions, defaultServerConditions } from 'vite';

/**
 * Unit and component tests, in jsdom. The end-to-end files (test/e2e) are a
 * project of their own, vitest.e2e.config.ts: its global setup starts
 * Chromium, which the unit loop must never do.
 */
export default defineProject({
  plugins: [react()],
  resolve: { conditions: ['a2a-source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['a2a-source', ...defaultServerConditions] } },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: [...configDefaults.exclude, 'test/e2e/**'],
    setupFiles: ['vitest.setup.ts'],
    // A worker keeps React, jsdom's loader and the app's modules for its next
    // file instead of loading them again; each file still gets a fresh jsdom
    // window, and the setup file cleans up after every test.
    isolate: false,
    // jsdom with other files running beside them.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
