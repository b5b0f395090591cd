import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startSandbox } from '../../src/sandbox/index.js';
import { loadSettings } from '../../src/settings/index.js';
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

  it('run again, writes only the missing files and keeps edited ones; --force replaces them', async () => {
    const dir = emptyRepo();
    expect((await cli(['init'], { cwd: dir, env: { HOME: dir } })).code).toBe(0);
    writeFileSync(join(dir, '.github/workflows/svc-gitops-plan.yml'), 'mine\n');
    writeFileSync(join(dir, 'svc-gitops.yaml'), 'version: 1\n');
    rmSync(join(dir, '.github/workflows/svc-gitops-drift.yml'));
    const again = await cli(['init'], { cwd: dir, env: { HOME: dir } });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Wrote .github/workflows/svc-gitops-drift.yml.');
    expect(again.stdout).toMatch(
      /Kept svc-gitops\.yaml, .*svc-gitops-plan\.yml.* as they are \(--force replaces them\)/,
    );
    expect(readFileSync(join(dir, '.github/workflows/svc-gitops-plan.yml'), 'utf8')).toBe('mine\n');
    expect(readFileSync(join(dir, 'svc-gitops.yaml'), 'utf8')).toBe('version: 1\n');
    expect(existsSync(join(dir, '.github/workflows/svc-gitops-drift.yml'))).toBe(true);
    const nothing = await cli(['init'], { cwd: dir, env: { HOME: dir } });
    expect(nothing.stdout).toContain('Wrote nothing: every file init writes is here.');
    const forced = await cli(['init', '--force'], { cwd: dir, env: { HOME: dir } });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, '.github/workflows/svc-gitops-plan.yml'), 'utf8')).not.toBe('mine\n');
    expect(readFileSync(join(dir, 'svc-gitops.yaml'), 'utf8')).toContain('unmanaged: report');
    // .gitignore is only ever added to: one line, however often init runs.
    expect(readFileSync(join(dir, '.gitignore'), 'utf8').match(/^\/\.svc-gitops\/$/gm)).toHaveLength(1);
  });

  it("adds apply's state directory to .gitignore, so git ignores the journal (keeping what is there)", async () => {
    const dir = tempDirForFile('svc-gitops-init-');
    const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
    if (git('init', '-q').status !== 0) return; // no git on this machine: the text check below is in the next case
    writeFileSync(join(dir, '.gitignore'), 'node_modules');
    const init = await cli(['init'], { cwd: dir, env: { HOME: dir } });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('.gitignore (/.svc-gitops/)');
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^node_modules\n#.*\n\/\.svc-gitops\/\n$/);
    expect(git('check-ignore', '-q', '.svc-gitops/journal-0123.jsonl').status).toBe(0);
    expect(git('check-ignore', '-q', 'svc-gitops.yaml').status).toBe(1);
    // A line that already names the directory is left alone; a state directory set elsewhere is named.
    writeFileSync(join(dir, '.gitignore'), '.svc-gitops\n');
    rmSync(join(dir, 'settings.example.json'));
    await cli(['init'], { cwd: dir, env: { HOME: dir } });
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('.svc-gitops\n');
    await cli(['init'], { cwd: dir, env: { HOME: dir, SVC_GITOPS_STATE_DIR: 'state/apply' } });
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('\n/state/apply/\n');
  });

  it('points editors at the published schema and leaves every limit of the settings example at its default', async () => {
    const dir = emptyRepo();
    expect((await cli(['init'], { cwd: dir, env: { HOME: dir } })).code).toBe(0);
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const yaml = readFileSync(join(dir, 'svc-gitops.yaml'), 'utf8');
    expect(yaml.split('\n')[0]).toBe(
      `# yaml-language-server: $schema=https://cdn.jsdelivr.net/npm/svc-gitops@${version}/schemas/svc-gitops.schema.json`,
    );
    expect(yaml).not.toContain('node_modules');
    const example = JSON.parse(readFileSync(join(dir, 'settings.example.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(example).not.toHaveProperty('rateLimit');
    expect(example).not.toHaveProperty('concurrency');
    const empty = tempDirForFile('svc-gitops-init-defaults-');
    const defaults = loadSettings({ env: {}, cwd: empty, fs, homeDir: empty }).settings as unknown as Record<
      string,
      unknown
    >;
    for (const [key, value] of Object.entries(example))
      if (key !== '_comment' && key !== 'dashboardUrl') expect(value, key).toEqual(defaults[key]);
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
