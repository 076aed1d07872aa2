import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'terminal-chat',
    include: ['src/**/*.test.ts'],
  },
});
