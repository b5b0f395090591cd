import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';

/**
 * The reviewer sees before the merge what the apply after it would refuse: the PR comment and the
 * step summary say it at the top, judged by apply's own checks. The check stays neutral (exit 0),
 * except under strict for names the dashboard does not know: the pull request can fix those.
 */
const FLEET = `sites:
  - id: 1
    url: https://site-1.demo.test/
    core: 6.8.1 -> 6.8.3
    plugins:
      akismet/akismet.php: 5.3.6 -> 5.3.7
`;
const CONFIG = `version: 1
updates:
  - {name: core, sites: [all], kinds: [core], max: minor}
  - {name: plugins, sites: [all], kinds: [plugins], max: minor}
`;

describe('refusals of the merge-time apply in the PR comment', () => {
  const sandbox = sandboxPer('test', async () => startSandbox({ fleet: parseFleet(FLEET) }));
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-gitops-refusals-'));
    writeFileSync(join(dir, 'svc-gitops.yaml'), CONFIG);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const env = (extra: Record<string, string> = {}) => ({
    ...sandbox.env(),
    HOME: dir,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    ...extra,
  });

  it('safe mode with a core update: the first lines of the comment and the summary say apply would refuse', async () => {
    const run = await cli(['comment', '--dry-run'], { cwd: dir, env: env() });
    expect(run.code, run.stderr).toBe(0);
    const top = run.stdout.split('\n').slice(0, 10).join('\n');
    expect(top).toContain('> [!CAUTION]');
    expect(top).toContain('**The apply after the merge would refuse this plan:**');
    expect(top).toMatch(/`SAFE_MODE_BLOCKED` safe mode is on and the plan holds 1 high-risk action/);
    expect(top).toContain('Fix: after review, run the apply job with SVC');
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n').slice(0, 10).join('\n')).toContain(
      'SAFE_MODE_BLOCKED',
    );
    expect(run.stderr).toContain(
      'svc-gitops: warning: the apply after the merge would refuse this plan (SAFE_MODE_BLOCKED)',
    );
  });

  it('strict: a name the dashboard does not know leads the comment and the summary, and fails the check', async () => {
    writeFileSync(
      join(dir, 'svc-gitops.yaml'),
      `${CONFIG}holds:\n  - {sites: [all], plugin: akismet/akismett.php}\n`,
    );
    const loose = await cli(['comment', '--dry-run'], { cwd: dir, env: env({ SVC_SAFE_MODE: 'false' }) });
    expect(loose.code, loose.stderr).toBe(0);
    expect(loose.stdout).not.toContain('UNKNOWN_NAMES');
    rmSync(join(dir, 'summary.md'));
    const run = await cli(['comment', '--dry-run'], {
      cwd: dir,
      env: env({ SVC_SAFE_MODE: 'false', SVC_STRICT: 'true', GITHUB_ACTIONS: 'true' }),
    });
    expect(run.code, run.stderr).toBe(1);
    const top = run.stdout.split('\n').slice(0, 10).join('\n');
    expect(top).toContain('> [!CAUTION]');
    expect(top).toMatch(/`UNKNOWN_NAMES` strict: the desired state names 1 site\(s\) or slug\(s\)/);
    expect(top).toContain('akismet/akismett.php');
    expect(top).toContain('did you mean akismet/akismet.php?');
    expect(top).toContain('Fix: correct the names in the YAML');
    // The check carries it as an error annotation; the step summary leads with it too.
    expect(run.stdout).toMatch(/^::error title=svc-gitops UNKNOWN_NAMES::the apply after the merge/m);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n').slice(0, 10).join('\n')).toContain(
      'UNKNOWN_NAMES',
    );
    // --strict on the command line asks the same.
    const flagged = await cli(['comment', '--dry-run', '--strict'], {
      cwd: dir,
      env: env({ SVC_SAFE_MODE: 'false' }),
    });
    expect(flagged.code).toBe(1);
    // drift honours strict the same way: the typo is an error and the run fails.
    const drift = await cli(['drift'], { cwd: dir, env: env({ SVC_STRICT: 'true' }) });
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('error: ');
    expect(drift.stderr).toContain('akismet/akismett.php');
    expect((await cli(['drift'], { cwd: dir, env: env() })).code).toBe(2);
  });

  it('updates waiting for a closed window lead the comment with when it opens; the check stays neutral', async () => {
    writeFileSync(
      join(dir, 'svc-gitops.yaml'),
      `version: 1\nupdates:\n  - {name: plugins, sites: [all], kinds: [plugins], max: minor, window: {schedule: '* 2 * * *', timezone: Europe/Berlin}}\n`,
    );
    const run = await cli(['comment', '--dry-run'], {
      cwd: dir,
      env: env({ GITHUB_ACTIONS: 'true' }),
      now: () => new Date('2026-11-23T02:20:00Z'),
    });
    expect(run.code, run.stderr).toBe(0);
    const top = run.stdout.split('\n').slice(0, 10).join('\n');
    expect(top).toMatch(/`GATE_CLOSED` updates on 1 site\(s\) wait for a gate and are not applied now/);
    expect(top).toContain('it opens 2026-11-24 02:00 Europe/Berlin (2026-11-24T01:00:00.000Z)');
    expect(run.stdout).toMatch(/^::warning title=svc-gitops GATE_CLOSED::/m);
  });

  it('a saved plan posted as it is (--plan-file) leads with the same refusals', async () => {
    const saved = await cli(['plan', '--out', 'plan.json'], { cwd: dir, env: env() });
    expect(saved.code, saved.stderr).toBe(0);
    const run = await cli(['comment', '--dry-run', '--plan-file', 'plan.json'], { cwd: dir, env: env() });
    expect(run.code, run.stderr).toBe(0);
    const top = run.stdout.split('\n').slice(0, 10).join('\n');
    expect(top).toContain('> [!CAUTION]');
    expect(top).toMatch(/`SAFE_MODE_BLOCKED` safe mode is on and the plan holds 1 high-risk action/);
  });

  it('with safe mode off, nothing is refused and the comment says nothing of it', async () => {
    const run = await cli(['comment', '--dry-run'], { cwd: dir, env: env({ SVC_SAFE_MODE: 'false' }) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('CAUTION');
    expect(run.stdout).not.toContain('SAFE_MODE_BLOCKED');
  });
});
