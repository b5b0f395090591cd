import type { BuildOptions } from 'esbuild';

/**
 * What every bundle of ours shares: Node 20 ES modules, dependencies included. The CommonJS
 * dependencies (commander, ajv, undici) call require; an ES module has none, so each output file
 * defines one.
 */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __svcGitopsRequire } from 'node:module'; const require = __svcGitopsRequire(import.meta.url);",
  },
};
