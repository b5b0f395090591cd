import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionRunEnvNames, actionRunScript, parseAction } from './workflow-lint.js';

/**
 * action.yml's run script under real bash, with a stand-in CLI that records its arguments and
 * environment: which command line each input leads to, and the shell's own handling (exit
 * codes, quoting, inputs that override the job's environment only when given).
 */
const script = actionRunScript();
let dir: string;
let scriptFile: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-gitops-action-'));
  scriptFile = join(dir, 'run.sh');
  writeFileSync(scriptFile, script);
  // Stands in for dist/cli/main.js: records argv and the variables it sees, writes apply's
  // report, exits with FAKE_EXIT_<command> or FAKE_EXIT.
  writeFileSync(
    join(dir, 'cli.mjs'),
    [
      "import { appendFileSync, writeFileSync } from 'node:fs';",
      'const argv = process.argv.slice(2);',
      "const seen = ['SVC_URL', 'SVC_USER', 'SVC_APP_PASSWORD', 'GITHUB_TOKEN', 'INPUT_DASHBOARD_APP_PASSWORD'];",
      'const env = Object.fromEntries(seen.map((name) => [name, process.env[name] ?? null]));',
      "appendFileSync(process.env.CALLS, JSON.stringify({ argv, env }) + '\\n');",
      "const out = argv.indexOf('--out');",
      "if (argv[0] === 'apply' && out > 0) writeFileSync(argv[out + 1], '## apply report\\n');",
      "process.exit(Number(process.env['FAKE_EXIT_' + argv[0]] ?? process.env.FAKE_EXIT ?? 0));",
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Call {
  argv: string[];
  env: Record<string, string | null>;
}

function runAction(inputs: Record<string, string>, extra: Record<string, string> = {}) {
  const calls = join(dir, `calls-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(calls, '');
  writeFileSync(join(dir, 'summary.md'), '');
  // Every variable of the step's env: is set, as the runner sets them (empty when not given).
  const stepEnv = Object.fromEntries(actionRunEnvNames().map((name) => [name, '']));
  // As the runner runs a `shell: bash` step: the script in a file, `bash --noprofile --norc -eo pipefail FILE`.
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], {
    env: {
      PATH: process.env.PATH,
      RUNNER_TEMP: dir,
      GITHUB_OUTPUT: join(dir, 'out'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      CALLS: calls,
      ...stepEnv,
      CLI: join(dir, 'cli.mjs'),
      COMMAND: 'plan',
      ARTIFACT_NAME: 'svc-gitops-plan',
      INPUT_GITHUB_TOKEN: 'ghs_inputToken',
      ...extra,
      ...inputs,
    },
    encoding: 'utf8',
  });
  const recorded = readFileSync(calls, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Call);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, calls: recorded };
}

describe('action.yml run script', () => {
  it('plan is comment --dry-run with the plan saved for upload', () => {
    const run = runAction({ COMMAND: 'plan', CONFIG: 'fleets/prod.yaml' });
    expect(run.stderr).toBe('');
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

  it('without a config input no -c is passed (an empty array under set -u)', () => {
    const run = runAction({ COMMAND: 'validate' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv)).toEqual([['validate', '--format', 'github']]);
  });

  it('comment posts an existing plan file as it is, else plans now into it', () => {
    const planFile = join(dir, 'given-plan.json');
    expect(runAction({ COMMAND: 'comment', PLAN_FILE: planFile }).calls[0]?.argv).toContain('--out');
    writeFileSync(planFile, '{}');
    const argv = runAction({ COMMAND: 'comment', PLAN_FILE: planFile }).calls[0]?.argv;
    expect(argv).toEqual(['comment', '--plan-file', planFile, '--artifact-name', 'svc-gitops-plan']);
  });

  it('inputs override the job environment only when given; secret inputs are not passed on', () => {
    const job = { SVC_URL: 'https://job.example', SVC_USER: 'job-user' };
    const fromJob = runAction({ COMMAND: 'validate' }, job).calls[0]?.env;
    expect(fromJob).toMatchObject({ SVC_URL: 'https://job.example', SVC_USER: 'job-user' });
    const given = runAction(
      {
        COMMAND: 'validate',
        INPUT_DASHBOARD_URL: 'https://input.example',
        INPUT_DASHBOARD_APP_PASSWORD: 'pw',
      },
      job,
    ).calls[0]?.env;
    expect(given).toMatchObject({
      SVC_URL: 'https://input.example',
      SVC_USER: 'job-user',
      SVC_APP_PASSWORD: 'pw',
      GITHUB_TOKEN: null,
      INPUT_DASHBOARD_APP_PASSWORD: null,
    });
  });

  it('passes the GitHub token only to the commands that write to GitHub', () => {
    for (const command of ['comment', 'drift']) {
      expect(runAction({ COMMAND: command }).calls[0]?.env).toMatchObject({ GITHUB_TOKEN: 'ghs_inputToken' });
    }
    for (const command of ['validate', 'plan']) {
      expect(runAction({ COMMAND: command }).calls[0]?.env).toMatchObject({ GITHUB_TOKEN: null });
    }
  });

  it('drift tolerates exit 2 (drift found) but not exit 1', () => {
    expect(runAction({ COMMAND: 'drift' }, { FAKE_EXIT: '2' }).status).toBe(0);
    expect(runAction({ COMMAND: 'drift' }, { FAKE_EXIT: '1' }).status).toBe(1);
    expect(runAction({ COMMAND: 'drift' }).calls.map((c) => c.argv)).toEqual([['drift', '--issue']]);
  });

  it('apply needs the reviewed plan, checks it, applies it and adds the report to the summary', () => {
    const missing = runAction({ COMMAND: 'apply' });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain('::error title=svc-gitops::command apply needs plan-file');
    expect(missing.calls).toEqual([]);
    const run = runAction({ COMMAND: 'apply', PLAN_FILE: 'reviewed/plan.json' });
    expect(run.status).toBe(0);
    expect(run.calls.map((c) => c.argv[0])).toEqual(['comment', 'apply']);
    expect(run.calls[0]?.argv).toEqual(
      expect.arrayContaining(['--plan-file', 'reviewed/plan.json', '--dry-run']),
    );
    expect(run.calls[1]?.argv.slice(0, 3)).toEqual(['apply', '--reviewed', 'reviewed/plan.json']);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('## apply report\n');
  });

  it('a failed apply still reports, and fails the step with its exit code', () => {
    const run = runAction({ COMMAND: 'apply', PLAN_FILE: 'p.json' }, { FAKE_EXIT_apply: '130' });
    expect(run.status).toBe(130);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('## apply report\n');
  });

  it('a reviewed plan that fails its check is never applied', () => {
    const run = runAction({ COMMAND: 'apply', PLAN_FILE: 'p.json' }, { FAKE_EXIT_comment: '1' });
    expect(run.status).toBe(1);
    expect(run.calls.map((c) => c.argv[0])).toEqual(['comment']);
  });

  it('rejects an unknown command, with the value kept out of the shell and out of workflow commands', () => {
    const run = runAction({ COMMAND: '$(touch pwned); plan\n::add-mask::x' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('::error title=svc-gitops::unknown command');
    expect(run.stdout).not.toMatch(/^::add-mask::/m);
    expect(run.stdout).toContain('svc-gitops: command was $');
    expect(existsSync(join(process.cwd(), 'pwned'))).toBe(false);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });
});

describe('action.yml build step', () => {
  const build = parseAction().runs.steps.find((s) => s.name === 'Build svc-gitops')?.run ?? '';

  /** Runs the build step in an action directory with a stand-in `npm` that logs its arguments. */
  function runBuild(actionDir: string, npmExit = '0') {
    const bin = join(actionDir, 'bin');
    mkdirSync(bin, { recursive: true });
    const npm = join(bin, 'npm');
    writeFileSync(
      npm,
      `#!/usr/bin/env bash\necho "$*" >> "${join(actionDir, 'npm.log')}"\nexit ${npmExit}\n`,
    );
    chmodSync(npm, 0o755);
    writeFileSync(join(actionDir, 'build.sh'), build);
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', 'build.sh'], {
      cwd: actionDir,
      env: { PATH: `${bin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    const log = existsSync(join(actionDir, 'npm.log'))
      ? readFileSync(join(actionDir, 'npm.log'), 'utf8')
      : '';
    return { status: result.status, npm: log.split('\n').filter(Boolean) };
  }

  it('installs with the dev dependencies and builds once per job', () => {
    const actionDir = join(dir, 'action-ok');
    mkdirSync(join(actionDir, 'node_modules'), { recursive: true });
    const first = runBuild(actionDir);
    expect(first.status).toBe(0);
    expect(first.npm).toEqual(['ci --include=dev --ignore-scripts --no-audit --no-fund', 'run build']);
    const second = runBuild(actionDir);
    expect(second.status).toBe(0);
    expect(second.npm).toHaveLength(2);
  });

  it('a failed install or build fails the step and leaves no marker', () => {
    const actionDir = join(dir, 'action-failing');
    mkdirSync(join(actionDir, 'node_modules'), { recursive: true });
    expect(runBuild(actionDir, '1').status).toBe(1);
    expect(existsSync(join(actionDir, 'node_modules', '.svc-gitops-built'))).toBe(false);
  });
});
