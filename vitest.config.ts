import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    // Integration tests start real servers on real SQLite files; argon2 is deliberately slow, so give them room.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
