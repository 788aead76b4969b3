import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The browser suite: run by `npm run e2e` (scripts/e2e.ts), which starts the servers first. */
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['e2e/**/*.e2e.ts'],
    setupFiles: ['e2e/harness/profileLanguages.setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // vitest's default (1 s) is shorter than an answer can take while the server, Chromium and
    // the runner share CI's two cores.
    expect: { poll: { timeout: 10_000 } },
    fileParallelism: false,
    pool: 'forks',
    sequence: { concurrent: false },
  },
});
