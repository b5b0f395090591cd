import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import type { Plan } from '../../src/types.js';
import { cli } from '../helpers/cli.js';
import { PROFILES, sandboxEnv, startDemo, tempDir } from './helpers.js';

/** `import` then `plan`: the imported YAML adopts the live ignore lists, so nothing to (un)ignore. */
describe.each(PROFILES)('import against the %s sandbox', (profile) => {
  let sandbox: RunningSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startDemo(profile);
    env = sandboxEnv(sandbox, tempDir());
  });
  afterAll(() => sandbox.close());

  it('import --out, then plan with that file: no ignore or unignore actions', async () => {
    const cwd = tempDir();
    const imported = await cli(['import', '--out', 'svc-gitops.yaml'], { env, cwd });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe('');
    expect(imported.stderr).toContain('Wrote ');
    const yaml = readFileSync(join(cwd, 'svc-gitops.yaml'), 'utf8');
    expect(yaml).toContain('woocommerce/woocommerce.php');

    const validated = await cli(['validate'], { env, cwd });
    expect(validated.code, validated.stderr + validated.stdout).toBe(0);

    const planned = await cli(['plan', '--format', 'json', '--detailed-exitcode'], { env, cwd });
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.actions.filter((action) => action.op !== 'update')).toEqual([]);
    expect(plan.summary).toMatchObject({ ignore: 0, unignore: 0 });
    // The import writes no update policies, so the plan is empty and exits 0.
    expect(planned.code, planned.stderr).toBe(0);
  });

  it('import to stdout gives the same YAML as import --out', async () => {
    const cwd = tempDir();
    const printed = await cli(['import'], { env, cwd });
    await cli(['import', '--out', 'adopted.yaml'], { env, cwd });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(readFileSync(join(cwd, 'adopted.yaml'), 'utf8'));
  });

  it('import --out refuses to overwrite an existing file without --force', async () => {
    const cwd = tempDir();
    const target = join(cwd, 'existing.yaml');
    for (const out of ['existing.yaml', target]) {
      writeFileSync(target, '# mine\n');
      const refused = await cli(['import', '--out', out], { env, cwd });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('exists');
      expect(refused.stderr).toContain('--force');
      expect(readFileSync(target, 'utf8')).toBe('# mine\n');

      const forced = await cli(['import', '--out', out, '--force'], { env, cwd });
      expect(forced.code, forced.stderr).toBe(0);
      expect(readFileSync(target, 'utf8')).toContain('version: 1');
    }
  });
});
