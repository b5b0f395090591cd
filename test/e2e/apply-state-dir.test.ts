import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { REPO, startDemo, tempDir } from './helpers.js';

/** Where apply keeps its journal and used-plan records (`--state-dir`, SVC_GITOPS_STATE_DIR). */
describe('apply state directory', () => {
  const sandbox = sandboxPer('test', () => startDemo('compat-6.1'));

  it('an empty SVC_GITOPS_STATE_DIR counts as unset: records go to .svc-gitops, not the working directory', async () => {
    const cwd = tempDir('svc-gitops-state-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    const env = { ...fastClientEnv(sandbox), HOME: tempDir(), SVC_GITOPS_STATE_DIR: '' };
    const run = await cli(['apply', '--auto-approve', '--target', '1'], { env, cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(cwd).sort()).toEqual(['.svc-gitops', 'svc-gitops.yaml']);
    expect(readdirSync(join(cwd, '.svc-gitops')).some((name) => name.startsWith('journal-'))).toBe(true);
    expect(existsSync(join(cwd, 'used-plans'))).toBe(false);
  });
});
