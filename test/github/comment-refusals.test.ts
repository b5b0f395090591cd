import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFleet, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { sandboxPer } from '../helpers/sandbox.js';

/**
 * The reviewer sees before the merge what the apply after it would refuse: the PR comment and the
 * step summary say it at the top, judged by apply's own checks. The check stays neutral (exit 0).
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

  it('with safe mode off, nothing is refused and the comment says nothing of it', async () => {
    const run = await cli(['comment', '--dry-run'], { cwd: dir, env: env({ SVC_SAFE_MODE: 'false' }) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('CAUTION');
    expect(run.stdout).not.toContain('SAFE_MODE_BLOCKED');
  });
});
