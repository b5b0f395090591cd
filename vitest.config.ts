import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The real-dashboard suite has its own config and command (npm run test:real).
    exclude: ['test/real/**', '**/node_modules/**'],
    // Removes the temporary directories a test file made (tempDirForFile) once its tests are done.
    setupFiles: ['test/setup/temp-dirs.ts', 'test/setup/output-audit.ts', 'test/setup/sandbox-cost.ts'],
    // Every sandbox answer is checked against its profile's published output schema.
    globalSetup: ['test/setup/output-audit-global.ts'],
    // Far above what any test needs (the slowest take seconds; .ci/run lists the ten slowest): a
    // test fails on its assertions, never because a busy machine ran it slowly. A hang still ends.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Most tests wait on child processes and loopback servers rather than compute, so a worker per
    // core keeps every core busy; vitest's default leaves one of a 2-core machine's two idle.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
