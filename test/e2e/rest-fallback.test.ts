import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { PROFILES, planSchemaErrors, REPO, sandboxEnv, startDemo, tempDir } from './helpers.js';

/**
 * A dashboard on a WordPress without the abilities API serves only REST v2: plan and import
 * read through it with the bearer token, say so, and never plan an unignore (REST has none).
 */
describe.each(PROFILES)('plan and import through REST v2 only (%s sandbox)', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startDemo(profile, { surfaces: { abilities: false } });
    env = sandboxEnv(sandbox, tempDir());
  });
  afterAll(() => sandbox.close());
  it('plan reads through REST, warns that unignore is unavailable, and plans a valid plan', async () => {
    const result = await cli(['plan', '-c', 'examples/agency.yaml', '--format', 'json'], {
      env,
      cwd: REPO,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('(rest)');
    expect(result.stderr).toMatch(/cannot unignore/);
    const plan = JSON.parse(result.stdout) as Plan;
    expect(planSchemaErrors(plan)).toBe('');
    expect(plan.summary.unignore).toBe(0);
    expect(plan.summary.update).toBeGreaterThan(0);
  });

  it('import then plan: no ignore changes', async () => {
    const cwd = tempDir();
    const imported = await cli(['import', '--out', 'svc-gitops.yaml'], { env, cwd });
    expect(imported.code, imported.stderr).toBe(0);
    const planned = await cli(['plan', '--format', 'json'], { env, cwd });
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.actions.filter((action) => action.op !== 'update')).toEqual([]);
  });
});
