import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { fastClientEnv, sandboxControl, sandboxPer } from '../helpers/sandbox.js';
import { REPO, startDemo, tempDir } from './helpers.js';

/**
 * Profile `next` (dashboard-facts §9): the update abilities want `dry_run` first and `confirm`
 * with the preview's token; results list what an ignore held back in `skipped[]`.
 */
describe('plan → apply against the next release', () => {
  const sandbox = sandboxPer('test', () => startDemo('next'));
  const setup = () => {
    const cwd = tempDir('svc-gitops-next-');
    copyFileSync(join(REPO, 'examples/minimal.yaml'), join(cwd, 'svc-gitops.yaml'));
    return { cwd, env: { ...fastClientEnv(sandbox), HOME: tempDir() } };
  };

  it('applies through the dashboard dry run and preview token; the next plan is empty', async () => {
    const { cwd, env } = setup();
    expect((await cli(['plan', '--out', 'plan.json', '--target', '1', '2'], { env, cwd })).code).toBe(0);
    await sandboxControl(sandbox)('POST', 'stats/reset');
    const run = await cli(['apply', 'plan.json'], { env, cwd });
    expect(run.code, run.stderr).toBe(0);
    const stats = (await sandboxControl(sandbox)('GET', 'stats')) as {
      abilities: Record<string, number>;
      updates_run_total: number;
    };
    // One dry run and one confirmed run per run-updates call, never a run without its preview.
    const runs = stats.abilities['svc/run-updates-v1'] ?? 0;
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs % 2).toBe(0);
    expect(stats.updates_run_total).toBeGreaterThan(0);
    const again = await cli(['plan', '--target', '1', '2', '--detailed-exitcode'], { env, cwd });
    expect(again.code, again.stdout).toBe(0);
  });
});
