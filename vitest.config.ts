import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    projects: ['packages/*'],
  },
});
