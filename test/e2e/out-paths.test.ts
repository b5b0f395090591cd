import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { REPO, STACK_TRACE, startDemo, tempDir } from './helpers.js';

/**
 * `--out` mistakes a user makes: naming the config itself, a directory, a directory that does
 * not exist. Each is refused with a USAGE error that says why, before the dashboard is touched.
 */
describe('--out paths that cannot or must not take the output', () => {
  const sandbox = sandboxPer('suite', () => startDemo('compat-6.1'));

  function workDir(): string {
    const cwd = tempDir('svc-gitops-out-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    return cwd;
  }
  const env = () => ({ HOME: tempDir(), ...fastClientEnv(sandbox) });
  const resetStats = () => sandboxControl(sandbox)('POST', 'stats/reset');
  const requestsTotal = async () =>
    ((await sandboxControl(sandbox)('GET', 'stats')) as { requests_total: number }).requests_total;

  it('plan --out naming the desired state is refused and leaves the config as it was', async () => {
    const cwd = workDir();
    const before = readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8');
    await resetStats();
    for (const out of ['svc-gitops.yaml', './svc-gitops.yaml']) {
      const run = await cli(['plan', '--out', out], { env: env(), cwd });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(
        `svc-gitops: error [USAGE]: --out ${out} would overwrite the desired state`,
      );
      expect(run.stderr).not.toMatch(STACK_TRACE);
    }
    expect(readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8')).toBe(before);
    expect(await requestsTotal()).toBe(0);
  });

  it('comment --out naming the desired state is refused before planning', async () => {
    const cwd = workDir();
    const before = readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8');
    await resetStats();
    const run = await cli(['comment', '--dry-run', '--out', 'svc-gitops.yaml'], { env: env(), cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('error [USAGE]: --out svc-gitops.yaml would overwrite the desired state');
    expect(readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8')).toBe(before);
    expect(await requestsTotal()).toBe(0);
  });

  it('plan --out into a desired-state directory as a YAML file is refused (it would be read as config)', async () => {
    const cwd = tempDir('svc-gitops-out-');
    mkdirSync(join(cwd, 'svc-gitops'));
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops', 'base.yaml'));
    const run = await cli(['plan', '--out', 'svc-gitops/plan.yaml'], { env: env(), cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      'error [USAGE]: --out svc-gitops/plan.yaml is a YAML file in the desired-state directory',
    );
  });

  it('plan --out naming a directory says so, not a temporary file name', async () => {
    const cwd = workDir();
    const run = await cli(['plan', '--out', '.'], { env: env(), cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('svc-gitops: error [IO_ERROR]: cannot write .: it is a directory');
    expect(run.stderr).not.toContain('.tmp');
  });

  it('apply PLANFILE --out into a missing directory is refused before anything is applied', async () => {
    const cwd = workDir();
    expect((await cli(['plan', '--out', 'plan.json', '--target', '4'], { env: env(), cwd })).code).toBe(0);
    await resetStats();
    const refused = await cli(['apply', 'plan.json', '--out', 'no/such/dir/report.txt'], { env: env(), cwd });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(
      'svc-gitops: error [USAGE]: cannot write to --out no/such/dir/report.txt',
    );
    expect(refused.stderr).toContain('nothing was changed');
    expect(await requestsTotal()).toBe(0);
    // The saved plan was not used up: it still applies, and the report lands where asked.
    const applied = await cli(['apply', 'plan.json', '--out', 'report.txt'], { env: env(), cwd });
    expect(applied.code, applied.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'report.txt'), 'utf8')).toContain('Apply complete');
  });

  it('apply --out naming the desired state is refused before planning', async () => {
    const cwd = workDir();
    await resetStats();
    const run = await cli(['apply', '--auto-approve', '--out', 'svc-gitops.yaml'], { env: env(), cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('error [USAGE]: --out svc-gitops.yaml would overwrite the desired state');
    expect(await requestsTotal()).toBe(0);
  });
});
