import { join } from 'node:path';
import { build } from 'esbuild';
import { NODE_BUNDLE } from './bundle-options.js';

/**
 * Bundles the GitHub action (src/cli/action-main.ts and everything it imports, dependencies
 * included) into the one committed file action.yml runs: action/dist/index.js. `--out FILE`
 * writes elsewhere (the test that checks the committed bundle is current).
 *
 * The bundle sits two levels below the repository root, as dist/<module>/ does, so the schemas
 * the code reads relative to its own file (`../../schemas/…`) resolve in the action's checkout.
 */
const ROOT = join(import.meta.dirname, '..');
const outIndex = process.argv.indexOf('--out');
const outfile = outIndex > 0 ? (process.argv[outIndex + 1] ?? '') : join(ROOT, 'action/dist/index.js');

await build({
  ...NODE_BUNDLE,
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/action-main.ts'],
  outfile,
  minify: true,
});
