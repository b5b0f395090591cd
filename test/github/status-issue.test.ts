import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { markdownStructure } from '../helpers/markdown-structure.js';
import { demoFleet } from '../helpers/sandbox.js';
import { FAKE_BODY_LIMIT, type FakeGitHub, startFakeGitHub } from './fake-github.js';

/**
 * `svc-gitops status --issue` end to end: the real CLI in-process, the sandbox with the demo
 * fleet, and GitHub faked at the HTTP level. One issue per dashboard, found by its marker,
 * rewritten in place and never closed: a dashboard issue stays open.
 */
const ROOT = join(import.meta.dirname, '..', '..');

let sandbox: RunningSandbox;
let github: FakeGitHub;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ fleet: demoFleet() });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  github = await startFakeGitHub();
  dir = mkdtempSync(join(tmpdir(), 'svc-gitops-status-'));
  writeFileSync(join(dir, 'svc-gitops.yaml'), readFileSync(join(ROOT, 'examples/minimal.yaml'), 'utf8'));
});
afterEach(async () => {
  await github.close();
  rmSync(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...sandbox.env(),
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/sites',
    GITHUB_TOKEN: github.token,
    GITHUB_API_URL: github.url,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '4242',
    GITHUB_WORKSPACE: dir,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    SVC_GITOPS_STATE_DIR: join(dir, '.svc-gitops'),
    ...extra,
  };
}
const status = (extra?: Record<string, string>) => cli(['status', '--issue'], { cwd: dir, env: env(extra) });
const read = (name: string) => readFileSync(join(dir, name), 'utf8');

describe('svc-gitops status --issue', () => {
  it('keeps one labelled issue, rewritten in place, open even when nothing is pending', async () => {
    const first = await status();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/status issue #1 created: https:\/\/github.com\/acme\/sites\/issues\/1/);
    const [issue] = github.issues;
    expect(issue).toMatchObject({ state: 'open', labels: ['svc-gitops-dashboard'] });
    expect(issue?.title).toMatch(/^svc-gitops status: 127\.0\.0\.1:\d+ \(svc-gitops\.yaml\)$/);
    expect(issue?.body).toMatch(/^<!-- svc-gitops:status http\S+ -->\n### svc-gitops status of /);
    expect(issue?.body).toContain('| Pending (will run now) |');
    expect(issue?.body).toContain('[run](https://github.com/acme/sites/actions/runs/4242)');
    expect(markdownStructure(issue?.body ?? '').problems).toEqual([]);
    // The step summary and the outputs name the same status.
    expect(read('summary.md')).toContain('### svc-gitops status of ');
    expect(read('output.txt')).toMatch(/issue-number<<(\S+)\n1\n\1/);

    const again = await status();
    expect(again.stdout).toMatch(/status issue #1 (unchanged|updated)/);
    expect(github.issues).toHaveLength(1);

    // Nothing left to do: the issue says so, and stays open.
    writeFileSync(join(dir, 'svc-gitops.yaml'), 'version: 1\n');
    const quiet = await status();
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(github.issues).toHaveLength(1);
    expect(github.issues[0]).toMatchObject({ state: 'open' });
    expect(github.issues[0]?.body).toContain(
      'Nothing is pending, waiting, held, quarantined, failed or vulnerable.',
    );
    expect(github.comments).toEqual([]);
  });

  it('never shares the drift issue: each has its own marker', async () => {
    await cli(['drift', '--issue'], { cwd: dir, env: env() });
    await status();
    expect(github.issues.map((i) => i.labels)).toEqual([['svc-gitops-drift'], ['svc-gitops-dashboard']]);
    expect(github.issues.every((i) => (i.body?.length ?? 0) < FAKE_BODY_LIMIT)).toBe(true);
  });

  it('writes no secret into the issue', async () => {
    await status();
    const body = github.issues[0]?.body ?? '';
    for (const secret of [github.token, sandbox.credentials.applicationPassword, sandbox.credentials.token])
      expect(body).not.toContain(secret);
  });

  it('--issue without a token stops before reading the dashboard', async () => {
    const run = await status({ GITHUB_TOKEN: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('GITHUB_TOKEN is not set');
    expect(github.requests).toHaveLength(0);
  });
});
