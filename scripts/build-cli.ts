import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { NODE_BUNDLE } from './bundle-options.js';

/**
 * Bundles the command line (src/cli/main.ts, dependencies included) into dist/bin/, which the
 * package's `bin` runs: one file to load instead of some 300 modules, which is most of a short
 * command's start-up. Modules a command imports with `import()` (the MCP server) go into chunks
 * of their own beside it, loaded only by that command. dist/bin/ sits two levels below the package
 * root, as dist/<module>/ does, so the package files the code reads relative to its own file
 * (`../../schemas/…`, `../../examples/…`) resolve the same. The library (`exports`) stays tsc's
 * dist/index.js.
 */
const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist/bin');

rmSync(OUT, { recursive: true, force: true });
await build({
  ...NODE_BUNDLE,
  absWorkingDir: ROOT,
  entryPoints: { 'svc-gitops': 'src/cli/main.ts' },
  outdir: OUT,
  splitting: true,
  chunkNames: '[name]-[hash]',
  sourcemap: true,
});
chmodSync(join(OUT, 'svc-gitops.js'), 0o755);
