import { defineConfig } from 'vitest/config';

// `npm run test:real`: the conformance suite against a real MainWP dashboard on loopback
// (scripts/real-dashboard/). One dashboard for all files, so they run one after another.
export default defineConfig({
  test: {
    include: ['test/real/**/*.test.ts'],
    globalSetup: ['test/real/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
  },
});
