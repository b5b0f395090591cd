import { defineConfig } from 'vitest/config';
export default defineConfig({
  resolve: {
    alias: [
      { find: /^\.\.\/pipeline\.js$/, replacement: '/tmp/applystub/pipeline-stub.ts' },
      { find: /^\.\/program\.js$/, replacement: '/tmp/applystub/program-stub.ts' },
    ],
  },
  test: { root: '/work/main', include: ['test/apply/cli-*.test.ts'], testTimeout: 30_000, pool: 'forks' },
});
