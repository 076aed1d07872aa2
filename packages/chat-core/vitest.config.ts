import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['a2a-source'] },
  ssr: { resolve: { conditions: ['a2a-source'] } },
  test: {
    name: 'chat-core',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
