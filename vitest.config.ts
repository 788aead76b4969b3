import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['engine/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'web/mobile/src/**/*.test.{ts,tsx}', 'e2e/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**/*.e2e.ts'],
    setupFiles: ['scripts/test/fastCheckSeed.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
