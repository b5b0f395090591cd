import * as fs from 'node:fs';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_COMMANDS, ACTION_INPUTS, runAction } from '../../src/cli/action.js';
import type { CliContext } from '../../src/cli/context.js';
import { parseAction } from './workflow-lint.js';

/**
 * The action's dispatch (src/cli/action.ts) with a stand-in CLI that records each command line
 * and the environment it sees, writes apply's report and exits with FAKE_EXIT_<command> or
 * FAKE_EXIT: which command lines each input leads to, and the step's exit code. The real CLI
 * behind it runs in action-e2e.test.ts.
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-gitops-action-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Call {
  argv: string[];
  env: Record<string, string | null>;
}
const SEEN = [
  'SVC_URL',
  'SVC_USER',
  'SVC_APP_PASSWORD',
  'GITHUB_TOKEN',
  'INPUT_DASHBOARD-APP-PASSWORD',
  'SVC_GITOPS_STATE_DIR',
  'SVC_STRICT',
];

/** `inputs` by their action.yml names; `job` is the job's environment. */
async function step(inputs: Record<string, string>, job: Record<string, string> = {}) {
  writeFileSync(join(dir, 'summary.md'), '');
  writeFileSync(join(dir, 'output.txt'), '');
  const calls: Call[] = [];
  let stdout = '';
  const env: CliContext['env'] = {
    RUNNER_TEMP: dir,
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    // As the runner sets them: every declared input, the defaults applied.
    ...Object.fromEntries(ACTION_INPUTS.map((name) => [`INPUT_${name.toUpperCase()}`, ''])),
    'INPUT_ARTIFACT-NAME': 'svc-gitops-plan',
    'INPUT_GITHUB-TOKEN': 'ghs_inputToken',
    ...job,
    ...Object.fromEntries(
      Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
    ),
  };
  const ctx: CliContext = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: () => true },
    env,
    cwd: dir,
    fs,
    signal: new AbortController().signal,
    now: () => new Date(),
  };
  const status = await runAction(ctx, async (argv, cliCtx) => {
    calls.push({ argv, env: Object.fromEntries(SEEN.map((name) => [name, cliCtx.env[name] ?? null])) });
    const out = argv.indexOf('--out');
    if (argv[0] === 'apply' && out > 0) writeFileSync(argv[out + 1] ?? '', '## apply report\n');
    return Number(job[`FAKE_EXIT_${argv[0]}`] ?? job.FAKE_EXIT ?? 0);
  });
  return {
    status,
    stdout,
    calls,
    summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
    outputs: readFileSync(join(dir, 'output.txt'), 'utf8'),
  };
}

describe('the action', () => {
  it('declares in action.yml exactly the inputs it reads, and documents every command', () => {
    const action = parseAction();
    expect(Object.keys(action.inputs).sort()).toEqual([...ACTION_INPUTS].sort());
    for (const command of ACTION_COMMANDS) expect(action.inputs.command?.description).toContain(command);
  });

  it('plan is comment --dry-run with the plan saved for upload', async () => {
    const run = await step({ command: 'plan', config: 'fleets/prod.yaml' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv)).toEqual([
      [
        'comment',
        '-c',
        'fleets/prod.yaml',
        '--out',
        join(dir, 'svc-gitops-plan.json'),
        '--artifact-name',
        'svc-gitops-plan',
        '--dry-run',
      ],
    ]);
  });

  it('without a config input no -c is passed', async () => {
    const run = await step({ command: 'validate' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv)).toEqual([['validate', '--format', 'github']]);
  });

  it('comment posts an existing plan file as it is, else plans now into it', async () => {
    const planFile = join(dir, 'given-plan.json');
    expect((await step({ command: 'comment', 'plan-file': planFile })).calls[0]?.argv).toContain('--out');
    writeFileSync(planFile, '{}');
    const argv = (await step({ command: 'comment', 'plan-file': planFile })).calls[0]?.argv;
    expect(argv).toEqual(['comment', '--plan-file', planFile, '--artifact-name', 'svc-gitops-plan']);
  });

  it('on a pull request, plan and comment compare with its base: the payload base commit, else the base branch', async () => {
    const sha = 'a'.repeat(40);
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha } } }));
    const pr = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event, GITHUB_BASE_REF: 'main' };
    for (const command of ['comment', 'plan']) {
      const argv = (await step({ command }, pr)).calls[0]?.argv ?? [];
      expect(argv.slice(argv.indexOf('--compare-to'), argv.indexOf('--compare-to') + 2)).toEqual([
        '--compare-to',
        sha,
      ]);
    }
    const withoutPayload = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_BASE_REF: 'release/2.x' };
    expect((await step({ command: 'comment' }, withoutPayload)).calls[0]?.argv).toContain(
      'origin/release/2.x',
    );
    // A branch name git would read as an option is not passed on; other events have no base.
    const hostile = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_BASE_REF: '--upload-pack=x' };
    expect((await step({ command: 'comment' }, hostile)).calls[0]?.argv).not.toContain('--compare-to');
    expect((await step({ command: 'comment' }, { GITHUB_EVENT_NAME: 'push' })).calls[0]?.argv).not.toContain(
      '--compare-to',
    );
  });

  it('comment in a merge queue plans and checks without posting (there is no pull request)', async () => {
    const run = await step({ command: 'comment' }, { GITHUB_EVENT_NAME: 'merge_group' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv)).toEqual([
      [
        'comment',
        '--out',
        join(dir, 'svc-gitops-plan.json'),
        '--artifact-name',
        'svc-gitops-plan',
        '--dry-run',
      ],
    ]);
  });

  it('inputs override the job environment only when given; the inputs themselves are not passed on', async () => {
    const job = { SVC_URL: 'https://job.example', SVC_USER: 'job-user' };
    const fromJob = (await step({ command: 'validate' }, job)).calls[0]?.env;
    expect(fromJob).toMatchObject({ SVC_URL: 'https://job.example', SVC_USER: 'job-user' });
    const given = (
      await step(
        { command: 'validate', 'dashboard-url': 'https://input.example', 'dashboard-app-password': 'pw' },
        job,
      )
    ).calls[0]?.env;
    expect(given).toEqual({
      SVC_URL: 'https://input.example',
      SVC_USER: 'job-user',
      SVC_APP_PASSWORD: 'pw',
      GITHUB_TOKEN: null,
      'INPUT_DASHBOARD-APP-PASSWORD': null,
      SVC_GITOPS_STATE_DIR: null,
      SVC_STRICT: null,
    });
  });

  it("strict: true reaches plan, comment and drift as SVC_STRICT; empty keeps the job's", async () => {
    for (const command of ['plan', 'comment', 'drift'])
      expect((await step({ command, strict: 'true' })).calls[0]?.env).toMatchObject({ SVC_STRICT: 'true' });
    expect((await step({ command: 'plan' }, { SVC_STRICT: 'true' })).calls[0]?.env.SVC_STRICT).toBe('true');
    expect((await step({ command: 'plan' })).calls[0]?.env.SVC_STRICT).toBe(null);
  });

  it('passes the GitHub token only to the commands that write to GitHub', async () => {
    for (const command of ['comment', 'drift', 'status'])
      expect((await step({ command })).calls[0]?.env).toMatchObject({ GITHUB_TOKEN: 'ghs_inputToken' });
    for (const command of ['validate', 'plan'])
      expect((await step({ command })).calls[0]?.env).toMatchObject({ GITHUB_TOKEN: null });
  });

  it('drift tolerates exit 2 (drift found) but not exit 1', async () => {
    expect((await step({ command: 'drift' }, { FAKE_EXIT: '2' })).status).toBe(0);
    expect((await step({ command: 'drift' }, { FAKE_EXIT: '1' })).status).toBe(1);
    expect((await step({ command: 'drift' })).calls.map((c) => c.argv)).toEqual([['drift', '--issue']]);
  });

  it('status keeps the dashboard issue: status --issue, with the config', async () => {
    const run = await step({ command: 'status', config: 'fleets/prod.yaml' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv)).toEqual([['status', '-c', 'fleets/prod.yaml', '--issue']]);
    expect((await step({ command: 'status' }, { FAKE_EXIT: '1' })).status).toBe(1);
  });

  it('apply needs the reviewed plan, checks it, applies it, reports to the summary and names the report', async () => {
    const missing = await step({ command: 'apply' });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain('::error title=svc-gitops::command apply needs plan-file');
    expect(missing.calls).toEqual([]);
    const run = await step({ command: 'apply', 'plan-file': 'reviewed/plan.json' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv[0])).toEqual(['comment', 'apply']);
    expect(run.calls[0]?.argv).toEqual(
      expect.arrayContaining(['--plan-file', 'reviewed/plan.json', '--dry-run']),
    );
    expect(run.calls[1]?.argv.slice(0, 3)).toEqual(['apply', '--reviewed', 'reviewed/plan.json']);
    expect(run.summary).toBe('## apply report\n');
    expect(run.outputs).toMatch(
      new RegExp(`^report-file<<(\\S+)\\n${join(dir, 'svc-gitops-apply-report.md')}\\n\\1\\n$`),
    );
  });

  it('resume finishes an interrupted apply from the journal in state-dir, and reports', async () => {
    const run = await step({ command: 'resume', 'state-dir': '.svc-gitops-restored' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv.slice(0, 2))).toEqual([['apply', '--resume']]);
    expect(run.calls[0]?.env.SVC_GITOPS_STATE_DIR).toBe('.svc-gitops-restored');
    expect(run.summary).toBe('## apply report\n');
  });

  it('rollout applies what is due without a reviewed plan, reports, and names the state file', async () => {
    writeFileSync(join(dir, 'prod.rollout.json'), '{}\n');
    const run = await step({ command: 'rollout', config: 'prod.yaml' }, { FAKE_EXIT_apply: '1' });
    expect(run.status).toBe(1);
    expect(run.calls.map((c) => c.argv)).toEqual([
      [
        'apply',
        '--auto-approve',
        '-c',
        'prod.yaml',
        '--format',
        'markdown',
        '--out',
        join(dir, 'svc-gitops-apply-report.md'),
      ],
    ]);
    expect(run.calls[0]?.env.GITHUB_TOKEN).toBeNull();
    expect(run.summary).toBe('## apply report\n');
    expect(run.outputs).toMatch(/^rollout-state-file<<(\S+)\nprod\.rollout\.json\n\1\n$/m);
    rmSync(join(dir, 'prod.rollout.json'));
  });

  it('rollout names no state file when the run left none', async () => {
    const run = await step({ command: 'rollout', config: 'other.yaml' });
    expect(run.status).toBe(0);
    expect(run.outputs).not.toContain('rollout-state-file');
  });

  it('a failed apply still reports, and fails the step with its exit code', async () => {
    const run = await step({ command: 'apply', 'plan-file': 'p.json' }, { FAKE_EXIT_apply: '130' });
    expect(run.status).toBe(130);
    expect(run.summary).toBe('## apply report\n');
  });

  it('a reviewed plan that fails its check is never applied', async () => {
    const run = await step({ command: 'apply', 'plan-file': 'p.json' }, { FAKE_EXIT_comment: '1' });
    expect(run.status).toBe(1);
    expect(run.calls.map((c) => c.argv[0])).toEqual(['comment']);
  });

  it('rejects an unknown command, with the value kept out of workflow commands', async () => {
    const run = await step({ command: '$(touch pwned); plan\n::add-mask::x' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('::error title=svc-gitops::unknown command');
    expect(run.stdout).not.toMatch(/^::add-mask::/m);
    expect(run.stdout).toContain('svc-gitops: command was "$(touch pwned); plan\\n::add-mask::x"');
    expect(run.calls).toEqual([]);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});
