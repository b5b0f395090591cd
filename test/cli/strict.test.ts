import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { demoFleet, fastClientEnv, sandboxPer } from '../helpers/sandbox.js';
import { tempDirForFile } from '../helpers/temp-dir.js';

/**
 * Names the dashboard does not know, from the issue's two typos: a site domain one letter off
 * (`wayne.demo.tst`) and a plugin slug without its folder (`akismet.php`). Warnings with the
 * closest known name by default; with --strict, SVC_STRICT or `strict` in settings, exit 1.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const sandbox = sandboxPer('suite', () =>
  startSandbox({
    fleet: demoFleet(),
  }),
);
const dir = tempDirForFile('svc-gitops-strict-');
writeFileSync(
  join(dir, 'typos.yaml'),
  'version: 1\nsites: [wayne.demo.tst]\nignores:\n  rules:\n    - sites: [all]\n      plugins: [akismet.php]\n',
);
writeFileSync(join(dir, 'clean.yaml'), readFileSync(join(ROOT, 'examples/minimal.yaml')));
writeFileSync(
  join(dir, 'installed.yaml'),
  'version: 1\nignores:\n  rules:\n    - sites: [all]\n      plugins: [classic-editor/classic-editor.php, classic-editr.php]\n',
);
/** classic-editor is installed on site 3 only, up to date and not ignored: in no fleet-wide listing. */
const UP_TO_DATE = parseFleet(
  `sites:
${[1, 2, 3]
  .map(
    (id) => `  - id: ${id}
    url: https://site-${id}.demo.test/
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
${id === 3 ? '      classic-editor/classic-editor.php: 1.6.7\n' : ''}`,
  )
  .join('')}`,
  'up-to-date.yaml',
);
/** classic-editor has a pending update on site 2 only: a read narrowed to site 1 cannot see it. */
const ELSEWHERE = parseFleet(
  `sites:
  - {id: 1, url: https://site-1.demo.test/, plugins: {akismet/akismet.php: 5.3.6 -> 5.3.7}}
  - {id: 2, url: https://site-2.demo.test/, plugins: {classic-editor/classic-editor.php: 1.6.6 -> 1.6.7}}
`,
  'elsewhere.yaml',
);
const env = (extra: Record<string, string> = {}) => ({
  ...fastClientEnv(sandbox),
  SVC_ALLOW_HTTP: 'true',
  HOME: dir,
  ...extra,
});

describe('names the dashboard does not know', () => {
  it('are warnings that suggest the closest known site and slug', async () => {
    const plan = await cli(['plan', '-c', 'typos.yaml'], { cwd: dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(
      'svc-gitops: warning: desired state (typos.yaml:2) selects domain wayne.demo.tst, which the dashboard does not list (did you mean wayne.demo.test?)',
    );
    expect(plan.stderr).toMatch(
      /svc-gitops: warning: typos\.yaml:5:\d+: an ignore rule names plugin akismet\.php, which no site reports .*\(did you mean akismet\/akismet\.php\?\)/,
    );

    // The JSON plan's note carries the same place.
    const json = await cli(['plan', '-c', 'typos.yaml', '--format', 'json'], { cwd: dir, env: env() });
    expect(JSON.parse(json.stdout).notes).toContainEqual({
      kind: 'unknown-site',
      message:
        'desired state (typos.yaml:2) selects domain wayne.demo.tst, which the dashboard does not list',
    });
  });

  it('fail the plan with --strict, SVC_STRICT or the strict setting, and no plan is saved', async () => {
    for (const [args, extra] of [
      [['--strict'], {}],
      [[], { SVC_STRICT: 'true' }],
    ] as const) {
      const plan = await cli(
        ['plan', '-c', 'typos.yaml', '--detailed-exitcode', '--out', 'plan.json', ...args],
        { cwd: dir, env: env(extra) },
      );
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain(
        'svc-gitops: error: desired state (typos.yaml:2) selects domain wayne.demo.tst',
      );
      expect(plan.stderr).toContain(
        'error [CONFIG_INVALID]: --strict: the desired state names 2 sites or slugs the dashboard does not know; the plan was not saved',
      );
      expect(() => readFileSync(join(dir, 'plan.json'))).toThrow();
    }
    const settingsDir = tempDirForFile('svc-gitops-strict-settings-');
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ strict: true }));
    writeFileSync(join(settingsDir, 'typos.yaml'), readFileSync(join(dir, 'typos.yaml')));
    const fromFile = await cli(['plan', '-c', 'typos.yaml'], {
      cwd: settingsDir,
      env: env({ HOME: settingsDir }),
    });
    expect(fromFile.code).toBe(1);
  });

  it('a desired state whose names the dashboard knows passes --strict', async () => {
    const plan = await cli(['plan', '-c', 'clean.yaml', '--strict'], { cwd: dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).not.toMatch(/warning|error/);
  });

  it('--strict reads the installed items: an installed, up-to-date slug passes, a typo is still named', async () => {
    const fleet = await startSandbox({ fleet: UP_TO_DATE });
    onTestFinished(() => fleet.close());
    const env = () => ({ ...fastClientEnv(fleet), SVC_ALLOW_HTTP: 'true', HOME: dir });
    const loose = await cli(['plan', '-c', 'installed.yaml'], { cwd: dir, env: env() });
    expect(loose.code, loose.stderr).toBe(0);
    expect(loose.stderr).toContain('plugin classic-editor/classic-editor.php, which no site reports');
    expect(loose.stderr).toContain('installed items not read');

    const strict = await cli(['plan', '-c', 'installed.yaml', '--strict'], { cwd: dir, env: env() });
    expect(strict.code).toBe(1);
    expect(strict.stderr).not.toContain('plugin classic-editor/classic-editor.php, which');
    expect(strict.stderr).toMatch(
      /svc-gitops: error: installed\.yaml:\d+:\d+: an ignore rule names plugin classic-editr\.php, which no site reports \(no pending update, no ignore, not installed on any of the \d+ sites read\) \(did you mean classic-editor\/classic-editor\.php\?\)/,
    );
    expect(strict.stderr).toContain('names 1 site or slug the dashboard does not know');
  });

  it('--target judges no slug by the targeted sites alone: one note, no false warning; --strict still judges', async () => {
    const fleet = await startSandbox({ fleet: ELSEWHERE });
    onTestFinished(() => fleet.close());
    const env = () => ({ ...fastClientEnv(fleet), SVC_ALLOW_HTTP: 'true', HOME: dir });
    const whole = await cli(['plan', '-c', 'installed.yaml'], { cwd: dir, env: env() });
    expect(whole.stderr).not.toContain('classic-editor/classic-editor.php, which');
    expect(whole.stderr).toContain(
      'warning: installed.yaml:4:7: an ignore rule names plugin classic-editr.php',
    );

    const targeted = await cli(['plan', '-c', 'installed.yaml', '--target', '1'], { cwd: dir, env: env() });
    expect(targeted.code, targeted.stderr).toBe(0);
    expect(targeted.stderr).not.toContain('warning');
    expect(targeted.stderr).toContain(
      'svc-gitops: note: 2 plugin or theme slugs of the desired state not checked: --target read the updates and ignores of 1 site only',
    );

    const strict = await cli(['plan', '-c', 'installed.yaml', '--target', '1', '--strict'], {
      cwd: dir,
      env: env(),
    });
    expect(strict.code).toBe(1);
    expect(strict.stderr).not.toContain('classic-editor/classic-editor.php, which');
    expect(strict.stderr).toContain('an ignore rule names plugin classic-editr.php, which no site reports');
    expect(strict.stderr).toContain('names 1 site or slug the dashboard does not know');
  });
});
