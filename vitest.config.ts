import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The MCP integration tests spawn real processes and servers; two cores, keep it calm.
    maxWorkers: 2,
  },
});
