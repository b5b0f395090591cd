import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { marker } from '../../src/github/index.js';
import { generateFleet, type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { demoFleet } from '../helpers/sandbox.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';

/**
 * `svc-gitops comment` and `svc-gitops drift` end to end: the real CLI in-process, the sandbox
 * dashboard with the demo fleet, and the fake GitHub, all on 127.0.0.1.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const FLEET = demoFleet();

let sandbox: RunningSandbox;
let github: FakeGitHub;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ fleet: FLEET });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(async () => {
  github = await startFakeGitHub();
  dir = mkdtempSync(join(tmpdir(), 'svc-gitops-github-'));
  writeFileSync(
    join(dir, 'event.json'),
    JSON.stringify({ pull_request: { number: 7, head: { sha: 'abcdef1234567890' } } }),
  );
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
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_WORKSPACE: dir,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    SVC_GITOPS_STATE_DIR: join(dir, '.svc-gitops'),
    ...extra,
  };
}
const read = (name: string) => readFileSync(join(dir, name), 'utf8');
const secrets = () => [github.token, sandbox.credentials.applicationPassword, sandbox.credentials.token];

describe('svc-gitops comment', () => {
  it('plans, posts one sticky comment, and updates it on the next run', async () => {
    const first = await cli(['comment', '--out', 'plan.json'], { cwd: dir, env: env() });
    expect(first.stderr).not.toMatch(/error/i);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /comment created on acme\/sites#7: https:\/\/github.com\/acme\/sites\/pull\/7#issuecomment-\d+/,
    );
    const [comment] = github.comments;
    expect(comment?.body.startsWith(`${marker('plan', 'svc-gitops.yaml')}\n`)).toBe(true);
    const plan = JSON.parse(read('plan.json')) as { id: string; summary: { update: number } };
    expect(comment?.body).toContain(plan.id);
    expect(comment?.body).toContain('### The whole plan');
    expect(comment?.body).toContain(
      'artifact `svc-gitops-plan` ([download](https://github.com/acme/sites/actions/runs/4242))',
    );
    expect(comment?.body).toContain('for `abcdef1`');

    const second = await cli(['comment'], { cwd: dir, env: env() });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/comment (updated|unchanged) on acme\/sites#7/);
    expect(github.comments).toHaveLength(1);

    expect(read('summary.md')).toContain('### The whole plan');
    const outputs = read('output.txt');
    expect(outputs).toContain(`plan-id<<`);
    expect(outputs).toContain(plan.id);
    expect(outputs).toMatch(/has-changes<<(\S+)\n(true|false)\n\1/);
    for (const secret of secrets())
      expect(first.stdout + first.stderr + comment?.body + outputs).not.toContain(secret);
  });

  it('outside a workflow (no GITHUB_REPOSITORY), the error says what to set or to preview with --dry-run', async () => {
    const run = await cli(['comment'], { cwd: dir, env: env({ GITHUB_REPOSITORY: '' }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('GITHUB_REPOSITORY must be "owner/name"');
    expect(run.stderr).toContain('or preview the comment without GitHub: --dry-run');
    const drift = await cli(['drift', '--issue'], { cwd: dir, env: env({ GITHUB_REPOSITORY: '' }) });
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('or leave out --issue to print the report only');
    expect(github.comments).toEqual([]);
  });

  it('comments a saved plan file without contacting the dashboard', async () => {
    await cli(['comment', '--dry-run', '--out', 'plan.json'], { cwd: dir, env: env() });
    const run = await cli(
      ['comment', '--plan-file', 'plan.json', '--pr', '9', '--artifact-url', 'https://example.test/a'],
      {
        cwd: dir,
        env: env({ SVC_URL: 'http://127.0.0.1:1/' }),
      },
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    expect(github.comments.map((c) => c.issue)).toEqual([9]);
    expect(github.comments[0]?.body).toContain('([download](https://example.test/a))');
  });

  it('refuses a plan file that was edited after planning', async () => {
    await cli(['comment', '--dry-run', '--out', 'plan.json'], { cwd: dir, env: env() });
    const plan = JSON.parse(read('plan.json'));
    plan.needs_approval = !plan.needs_approval;
    writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
    const run = await cli(['comment', '--plan-file', 'plan.json'], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error [PLAN_INVALID]');
    expect(github.comments).toHaveLength(0);
  });

  it('--dry-run prints the comment and posts nothing', async () => {
    const run = await cli(['comment', '--dry-run'], { cwd: dir, env: env({ GITHUB_TOKEN: '' }) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(marker('plan', 'svc-gitops.yaml'));
    expect(github.requests).toHaveLength(0);
  });

  it('an invalid desired state gives annotations, a "no plan" comment and exit 1', async () => {
    writeFileSync(join(dir, 'svc-gitops.yaml'), 'version: 1\npolices: []\n');
    const run = await cli(['comment'], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error .*file=svc-gitops\.yaml,line=2/m);
    expect(github.comments[0]?.body).toContain('**No plan:**');
    expect(github.comments[0]?.body).toContain('svc-gitops.yaml:2');
  });

  it('a credential quoted in a diagnostic (a secret typed into the YAML) is masked in the comment and the summary', async () => {
    const secret = 'Qm7v Xr2k Pz9w';
    writeFileSync(join(dir, 'svc-gitops.yaml'), `version: 1\nsites: "${secret}"\n`);
    const run = await cli(['comment'], { cwd: dir, env: env({ SVC_APP_PASSWORD: secret }) });
    expect(run.code).toBe(1);
    const body = github.comments[0]?.body ?? '';
    expect(body).toContain('**No plan:**');
    expect(body).toContain('[redacted]');
    expect(body + read('summary.md') + run.stdout + run.stderr).not.toContain(secret);
  });

  it('a plan that fails (the dashboard refuses the login) replaces the previous plan comment, and exits 1', async () => {
    const first = await cli(['comment'], { cwd: dir, env: env() });
    expect(first.code, first.stderr).toBe(0);
    expect(github.comments[0]?.body).toContain('### The whole plan');

    const wrong = env({ SVC_APP_PASSWORD: 'wrong pass word here' });
    const run = await cli(['comment'], { cwd: dir, env: wrong });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error [AUTH_FAILED]');
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0]?.body ?? '';
    expect(body.startsWith(`${marker('plan', 'svc-gitops.yaml')}\n`)).toBe(true);
    expect(body).toContain('**No plan:** planning failed (`AUTH_FAILED`)');
    expect(body).not.toContain('### The whole plan');
    for (const secret of [...secrets(), 'wrong pass word here']) expect(body).not.toContain(secret);
  });

  it('annotations name the file relative to the repository, also from a subdirectory', async () => {
    mkdirSync(join(dir, 'fleets'));
    writeFileSync(join(dir, 'fleets', 'prod.yaml'), 'version: 1\npolices: []\n');
    const run = await cli(['comment', '-c', 'prod.yaml', '--dry-run'], {
      cwd: join(dir, 'fleets'),
      env: env(),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error file=fleets\/prod\.yaml,line=2,col=\d+,title=svc-gitops /m);
  });

  it('reports a GitHub error clearly and never prints the token', async () => {
    github.fail({ method: 'POST', status: 403, body: { message: 'Resource not accessible by integration' } });
    const run = await cli(['comment'], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'svc-gitops: error [GITHUB_API]: GitHub API POST /repos/acme/sites/issues/7/comments failed with 403: Resource not accessible by integration',
    );
    expect(run.stderr).toContain('pull-requests: write');
    expect(run.stdout + run.stderr).not.toContain(github.token);
  });

  it('reports a rate limit with when to retry', async () => {
    github.rateLimit('primary');
    const run = await cli(['comment'], { cwd: dir, env: env() });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /error \[RATE_LIMITED\]: GitHub API rate limit hit: GET \/repos\/acme\/sites\/issues\/7\/comments/,
    );
    expect(run.stderr).toContain('resets at');
  });

  it('keeps the comment of a very large plan under GitHub’s limit, marker and artifact link intact', async () => {
    const big = await startSandbox({ fleet: generateFleet({ sites: 400, pendingPerSite: 6, seed: 7 }) });
    try {
      const run = await cli(['comment'], { cwd: dir, env: env(big.env()) });
      expect(run.stderr).not.toMatch(/error/i);
      expect(run.code).toBe(0);
      const body = github.comments[0]?.body ?? '';
      expect(body.length).toBeGreaterThan(50_000);
      expect(body.length).toBeLessThan(65_536);
      expect(body.startsWith(marker('plan', 'svc-gitops.yaml'))).toBe(true);
      expect(body).toContain('**Truncated:**');
      expect(body).toContain('artifact `svc-gitops-plan`');
      expect(read('summary.md')).toBe(body);
    } finally {
      await big.close();
    }
  });

  it('explains a missing pull request before reading the dashboard', async () => {
    writeFileSync(join(dir, 'event.json'), JSON.stringify({ ref: 'refs/heads/main' }));
    const run = await cli(['comment'], { cwd: dir, env: env({ GITHUB_EVENT_NAME: 'push' }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the push event is not about a pull request');
  });
});

describe('svc-gitops drift', () => {
  it('updates the issue and writes the summary before stdout, which a closed pipe would end', async () => {
    let atFirstStdout: { issues: number; summary: string } | undefined;
    const run = await cli(['drift', '--issue'], {
      cwd: dir,
      env: env(),
      onStdout: () => {
        atFirstStdout ??= { issues: github.issues.length, summary: read('summary.md') };
      },
    });
    expect(run.code, run.stderr).toBe(2);
    expect(atFirstStdout?.issues).toBe(1);
    expect(atFirstStdout?.summary).toContain('## svc-gitops plan');
  });

  it('exits 2 on drift and keeps one issue, then closes it when the drift is gone', async () => {
    const first = await cli(['drift', '--issue'], { cwd: dir, env: env() });
    expect(first.stderr).not.toMatch(/error/i);
    expect(first.code).toBe(2);
    expect(first.stdout).toContain('svc-gitops: drift found');
    expect(first.stdout).toMatch(/drift issue #1 created: https:\/\/github.com\/acme\/sites\/issues\/1/);
    expect(github.issues[0]).toMatchObject({ state: 'open', labels: ['svc-gitops-drift'] });
    expect(github.issues[0]?.title).toContain('svc-gitops drift: 127.0.0.1');
    expect(github.issues[0]?.body).toMatch(/^<!-- svc-gitops:drift http\S+ -->\n### Drift on /);
    expect(github.issues[0]?.body).toMatch(
      /differs from `svc-gitops\.yaml` on the default branch: \d+ to ignore/,
    );
    expect(github.issues[0]?.body).toContain('## svc-gitops plan');

    const again = await cli(['drift', '--issue'], { cwd: dir, env: env() });
    expect(again.code).toBe(2);
    expect(again.stdout).toMatch(/drift issue #1 (unchanged|updated)/);
    expect(github.issues).toHaveLength(1);

    // A desired state that asks for nothing leaves no drift: the issue is closed with a comment.
    writeFileSync(join(dir, 'svc-gitops.yaml'), 'version: 1\n');
    const gone = await cli(['drift', '--issue'], { cwd: dir, env: env() });
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain('svc-gitops: no drift');
    expect(github.issues[0]).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(github.comments[0]?.body).toContain('No drift left');
    expect(read('output.txt')).toMatch(/has-drift<<(\S+)\nfalse\n\1/);
  });

  it('--issue without a token stops before reading the dashboard', async () => {
    const run = await cli(['drift', '--issue'], { cwd: dir, env: env({ GITHUB_TOKEN: '' }) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error [USAGE]: GITHUB_TOKEN is not set');
    expect(run.stderr).not.toContain('Read ');
  });

  it('without --issue it only plans and never calls GitHub', async () => {
    const run = await cli(['drift'], { cwd: dir, env: env({ GITHUB_TOKEN: '' }) });
    expect(run.code).toBe(2);
    expect(github.requests).toHaveLength(0);
  });
});
