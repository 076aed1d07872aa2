import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

/**
 * The web chat, built into `dist/` and served by the harness at `/ui/`.
 * `a2a-source` resolves `a2a-commands` to its TypeScript source, so the chat
 * builds without building the library first; the defaults keep `browser`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  plugins: [react()],
  resolve: { conditions: ['a2a-source', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['a2a-source', ...defaultServerConditions] } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Source maps triple what a build ships and show the whole source: built
    // only when asked for (WEB_CHAT_SOURCEMAP=1), so the harness serves none by default.
    sourcemap: process.env['WEB_CHAT_SOURCEMAP'] === '1',
    // The A2A SDK client (with its JWS verifier) is most of the bundle; it is one download.
    chunkSizeWarningLimit: 1024,
  },
});
