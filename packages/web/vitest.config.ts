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
    // jsdom with other files running beside them.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
