import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';

describe('svc-gitops CLI', () => {
  it('prints its version and exits 0', async () => {
    const run = await cli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('rejects an unknown command with exit 1 and no stack trace', async () => {
    const run = await cli(['frobnicate']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('svc-gitops help', () => {
  it('apply --target accepts what plan --target accepts (IDs, domains or globs), as its help says', async () => {
    const plan = await cli(['plan', '--help']);
    const apply = await cli(['apply', '--help']);
    expect(plan.stdout).toMatch(/--target <site\.\.\.>\s+only these sites \(IDs, domains or globs\)/);
    expect(apply.stdout).toMatch(/--target <site\.\.\.>\s+only these sites \(IDs, domains or globs\)/);
  });
});
