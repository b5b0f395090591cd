import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { CONFIG, FLEET } from '../apply/world.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForSuite } from '../helpers/temp-dir.js';

const root = join(import.meta.dirname, '../..');
const SCRIPT = 'examples/library/plan-and-apply.ts';
/** tsx as installed here: the script runs from a directory of its own, with no node_modules. */
const TSX = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const sandbox = sandboxPer('suite', () =>
  startSandbox({ fleet: parseFleet(FLEET), profile: 'spec', seed: 1 }),
);
const dir = tempDirForSuite('svc-library-');

/** Runs the README's library script as a user would (tsx, `import … from 'svc-gitops'`), in `cwd`. */
function runScript(cwd: string, env: Record<string, string>) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SVC_')));
  const child = spawn(process.execPath, ['--import', TSX, join(root, SCRIPT)], {
    cwd,
    // tsx resolves `svc-gitops` to src/index.ts through the repository's tsconfig paths.
    env: { ...base, ...env, HOME: cwd, NO_COLOR: '1', TSX_TSCONFIG_PATH: join(root, 'tsconfig.json') },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // A backstop for a hung script, not a measurement.
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the README library script', () => {
  it('is in the README as it is in examples/, and stays short', () => {
    const script = readFileSync(join(root, SCRIPT), 'utf8');
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`\`\`\`ts\n${script}\`\`\``);
    const body = script.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('import '));
    expect(body.length).toBeLessThanOrEqual(15);
  });

  it('plans and applies against the sandbox; planning again finds nothing left', async () => {
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
    const env = fastClientEnv(sandbox);
    const first = await runScript(dir, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^5 to ignore, 1 to unignore, 12 to update on 5 sites$/m);
    expect(first.stdout).toMatch(/^Apply complete: 18 done, 0 failed, 0 skipped, 0 blocked \(7 calls to /m);

    const second = await runScript(dir, env);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    expect(second.stdout).toMatch(/^No changes/);
    expect(second.stdout).not.toContain('Apply ');
  });
});
