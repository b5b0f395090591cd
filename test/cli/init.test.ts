import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox } from '../../src/sandbox/index.js';
import { createSettingsValidator } from '../../src/settings/schema.js';
import { cli } from '../helpers/cli.js';
import { demoFleet, fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * `svc-gitops init` in an empty repository, then `validate` and `plan` there: against the
 * sandbox (the desired state is imported, so the plan adopts the dashboard as it is) and without
 * a dashboard (a starter that validates).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const sandbox = sandboxPer('suite', () =>
  startSandbox({
    fleet: demoFleet(),
  }),
);
const WRITTEN = [
  'svc-gitops.yaml',
  '.github/workflows/svc-gitops-plan.yml',
  '.github/workflows/svc-gitops-apply.yml',
  '.github/workflows/svc-gitops-drift.yml',
  '.github/dependabot.yml',
  'settings.example.json',
];

/** An empty git-like repository with a HOME of its own (no settings file is found). */
function emptyRepo(): string {
  const dir = tempDirForFile('svc-gitops-init-');
  mkdirSync(join(dir, '.git'));
  return dir;
}

describe('init → validate → plan in an empty repository', () => {
  it('with a dashboard: imports the desired state, writes the workflows, and the plan changes no ignore', async () => {
    const dir = emptyRepo();
    const env = { ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true', HOME: dir };
    const init = await cli(['init'], { cwd: dir, env });
    expect(init.code, init.stderr).toBe(0);
    for (const file of WRITTEN) expect(existsSync(join(dir, file)), file).toBe(true);
    expect(init.stdout).toContain('imported from the dashboard');
    expect(init.stderr).toMatch(/Wrote .*svc-gitops\.yaml: 25 sites/);
    for (const secret of [
      'SVC_URL',
      'SVC_READONLY_USER',
      'SVC_READONLY_APP_PASSWORD',
      'svc-gitops-production',
      'SVC_USER',
      'SVC_APP_PASSWORD',
    ])
      expect(init.stdout, secret).toContain(secret);
    expect(readFileSync(join(dir, '.github/dependabot.yml'), 'utf8')).toBe(
      readFileSync(join(ROOT, 'examples/github/dependabot.yml'), 'utf8'),
    );
    // The workflows are the shipped templates, byte for byte (they are linted in test/github/).
    for (const name of ['svc-gitops-plan.yml', 'svc-gitops-apply.yml', 'svc-gitops-drift.yml'])
      expect(readFileSync(join(dir, '.github/workflows', name), 'utf8')).toBe(
        readFileSync(join(ROOT, 'examples/github', name), 'utf8'),
      );

    const validate = await cli(['validate'], { cwd: dir, env });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toContain('svc-gitops.yaml: valid');
    const plan = await cli(['plan', '--format', 'json'], { cwd: dir, env });
    expect(plan.code, plan.stderr).toBe(0);
    const actions = (JSON.parse(plan.stdout) as { actions: Array<{ op: string }> }).actions;
    expect(actions.filter((a) => a.op !== 'update')).toEqual([]);
  });

  it('without a dashboard: a starter desired state that validates and a settings example that fits the schema', async () => {
    const dir = emptyRepo();
    const init = await cli(['init'], { cwd: dir, env: { HOME: dir } });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('a starter that changes nothing');
    const validate = await cli(['validate'], { cwd: dir, env: { HOME: dir } });
    expect(validate.code, validate.stderr).toBe(0);
    expect(parse(readFileSync(join(dir, 'svc-gitops.yaml'), 'utf8'))).toMatchObject({ version: 1 });
    const example = JSON.parse(readFileSync(join(dir, 'settings.example.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(() => createSettingsValidator().check(example, 'settings.example.json')).not.toThrow();
    expect(Object.keys(example)).not.toContain('applicationPassword');
    // Planned against the sandbox, the starter changes nothing.
    const plan = await cli(['plan', '--detailed-exitcode'], {
      cwd: dir,
      env: { ...fastClientEnv(sandbox), SVC_ALLOW_HTTP: 'true', HOME: dir },
    });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it('writes nothing when a file it would write exists, and names it', async () => {
    const dir = emptyRepo();
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(join(dir, '.github/workflows/svc-gitops-plan.yml'), 'mine\n');
    const init = await cli(['init'], { cwd: dir, env: { HOME: dir } });
    expect(init.code).toBe(1);
    expect(init.stderr).toContain(
      'error [USAGE]: .github/workflows/svc-gitops-plan.yml already exists; nothing was written',
    );
    expect(init.stderr).toContain('hint: pass --force');
    expect(existsSync(join(dir, 'svc-gitops.yaml'))).toBe(false);
    expect(readFileSync(join(dir, '.github/workflows/svc-gitops-plan.yml'), 'utf8')).toBe('mine\n');
    const forced = await cli(['init', '--force'], { cwd: dir, env: { HOME: dir } });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, '.github/workflows/svc-gitops-plan.yml'), 'utf8')).not.toBe('mine\n');
  });

  it('writes nothing when the dashboard cannot be read', async () => {
    const dir = emptyRepo();
    const env = {
      SVC_URL: 'http://127.0.0.1:9',
      SVC_USER: 'admin',
      SVC_APP_PASSWORD: 'x y z',
      SVC_ALLOW_HTTP: 'true',
      SVC_RETRY_MAX_RETRIES: '1',
      HOME: dir,
    };
    const init = await cli(['init'], { cwd: dir, env });
    expect(init.code).toBe(1);
    expect(init.stderr).toMatch(/error \[CONNECTION_FAILED\]/);
    for (const file of WRITTEN) expect(existsSync(join(dir, file)), file).toBe(false);
  });
});
