import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRolloutState } from '../../src/plan/index.js';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/index.js';
import { cli } from '../helpers/cli.js';
import { demoFleet } from '../helpers/sandbox.js';
import { type FakeGitHub, startFakeGitHub } from './fake-github.js';
import { parseAction } from './workflow-lint.js';

/**
 * The action end to end: its bundle, built from the current source as `npm run build:action`
 * builds the committed action/dist/index.js, laid out as in the action's checkout (schemas/ beside
 * action/), run by node as the runner runs a node24 action (inputs as INPUT_* variables), against the
 * sandbox dashboard with the demo fleet and the fake GitHub, all on 127.0.0.1. The steps are those
 * of a pull request and its merge: validate, plan, comment, apply the plan. Each test stands on
 * its own (any order, any one alone): the reviewed plans are saved in beforeAll, and apply runs
 * against a dashboard of its own, so it changes nothing the other steps read.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const FLEET = demoFleet();

/**
 * examples/minimal.yaml plus a hold on the one update the demo fleet makes fail, so the apply
 * can finish clean (the project CI's action job uses the same desired state).
 */
const DESIRED = `${readFileSync(join(ROOT, 'examples/minimal.yaml'), 'utf8')}holds:
  - sites: [tyrell.demo.test]
    plugin: wordfence/wordfence.php
    reason: its update fails on this sandbox site
`;

/** The dashboard the pull request's steps read, and its reviewed plan (saved in beforeAll). */
let sandbox: RunningSandbox;
let reviewedPlan: string;
/** Where apply runs: the same fleet, a dashboard no other test reads, and its reviewed plan. */
let merged: RunningSandbox;
let mergedPlan: string;
/** Where the scheduled rollout runs: the same fleet, a dashboard of its own. */
let rolledOut: RunningSandbox;
let github: FakeGitHub;
let dir: string;
let runnerTemp: string;
/** The bundled action, as action.yml's `runs.main` names it. */
let bundle: string;

/** The job's state directory for a dashboard: apply's records stay apart from the other steps'. */
const stateDir = (dashboard: RunningSandbox) =>
  join(
    dir,
    dashboard === merged
      ? '.svc-gitops-merged'
      : dashboard === rolledOut
        ? '.svc-gitops-rollout'
        : '.svc-gitops',
  );

/**
 * The desired state above in two waves: the staging sites first, health-checked; the rest only
 * once staging has stayed healthy for a day, so one scheduled run applies the first wave alone.
 */
const ROLLOUT = `${DESIRED}rollout:
  health: {max_unhealthy: 0}
  waves:
    - {name: canary, sites: ['staging-*.demo.test']}
    - {name: everyone, sites: [all], after: {wave: canary, healthy_for: 24h}}
`;

/** A saved plan of the desired state against `dashboard`, made in-process (no tsx start-up). */
async function savePlan(dashboard: RunningSandbox, file: string): Promise<string> {
  const run = await cli(['plan', '--out', file], {
    cwd: dir,
    env: { ...dashboard.env(), SVC_ALLOW_HTTP: 'true', HOME: dir, SVC_GITOPS_STATE_DIR: stateDir(dashboard) },
  });
  if (run.code !== 0) throw new Error(`saving the reviewed plan failed (${run.code}): ${run.stderr}`);
  return file;
}

beforeAll(async () => {
  [sandbox, merged, rolledOut, github] = await Promise.all([
    startSandbox({ fleet: FLEET }),
    startSandbox({ fleet: FLEET }),
    startSandbox({ fleet: FLEET }),
    startFakeGitHub(),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'svc-gitops-action-e2e-'));
  runnerTemp = join(dir, '_temp');
  mkdirSync(runnerTemp);
  writeFileSync(join(dir, 'svc-gitops.yaml'), DESIRED);
  writeFileSync(join(dir, 'rollout.yaml'), ROLLOUT);
  writeFileSync(join(dir, 'event.json'), JSON.stringify({ pull_request: { number: 12 } }));
  // The action's checkout: its bundle, the schemas it reads beside it, and package.json's "type".
  const checkout = join(dir, 'action-checkout');
  mkdirSync(checkout);
  cpSync(join(ROOT, 'schemas'), join(checkout, 'schemas'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
  bundle = join(checkout, 'action/dist/index.js');
  await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts/build-action.ts'), '--out', bundle],
    {
      cwd: ROOT,
    },
  );
  [reviewedPlan, mergedPlan] = await Promise.all([
    savePlan(sandbox, join(dir, 'reviewed-plan.json')),
    savePlan(merged, join(dir, 'merged-plan.json')),
  ]);
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), merged?.close(), rolledOut?.close(), github?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the step with these inputs; returns exit status, output and the step outputs written.
 * Asynchronously: the sandbox and the fake GitHub answer from this process's event loop.
 */
async function step(inputs: {
  command: string;
  config?: string;
  planFile?: string;
  /** The dashboard the step talks to: the pull request's unless given. */
  dashboard?: RunningSandbox;
}) {
  for (const file of ['output.txt', 'summary.md']) writeFileSync(join(dir, file), '');
  const target = inputs.dashboard ?? sandbox;
  const dashboard = target.env();
  const result = await runNode(bundle, {
    PATH: process.env.PATH,
    HOME: dir,
    NO_COLOR: '1',
    // The runner's environment.
    RUNNER_TEMP: runnerTemp,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_REPOSITORY: 'acme/sites',
    GITHUB_RUN_ID: '77',
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_API_URL: github.url,
    // The job's environment: plain HTTP is allowed for the sandbox only.
    SVC_ALLOW_HTTP: 'true',
    SVC_GITOPS_STATE_DIR: stateDir(target),
    // The inputs, as the runner passes them to a JavaScript action (defaults applied).
    INPUT_COMMAND: inputs.command,
    INPUT_CONFIG: inputs.config ?? '',
    'INPUT_PLAN-FILE': inputs.planFile ?? '',
    'INPUT_ARTIFACT-NAME': 'svc-gitops-plan',
    'INPUT_DASHBOARD-URL': dashboard.SVC_URL ?? '',
    'INPUT_DASHBOARD-USER': dashboard.SVC_USER ?? '',
    'INPUT_DASHBOARD-APP-PASSWORD': dashboard.SVC_APP_PASSWORD ?? '',
    'INPUT_DASHBOARD-TOKEN': '',
    'INPUT_GITHUB-TOKEN': github.token,
    'INPUT_STATE-DIR': '',
  });
  const all = result.stdout + result.stderr;
  const outputs = parseOutputs(readFileSync(join(dir, 'output.txt'), 'utf8'));
  // A workflow can read only the outputs action.yml declares: every one written must be there.
  const declared = Object.keys(parseAction().outputs);
  for (const name of Object.keys(outputs)) expect(declared, `output ${name}`).toContain(name);
  const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
  for (const secret of [target.credentials.applicationPassword, github.token])
    expect(all + JSON.stringify(outputs) + summary).not.toContain(secret);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, outputs, summary };
}

/** As the runner runs a node24 action's `main`: `node FILE`, in the workspace. */
function runNode(
  file: string,
  env: Record<string, string | undefined>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: dir, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** `$GITHUB_OUTPUT` in the heredoc form `name<<DELIM\nvalue\nDELIM\n`, as the runner reads it. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [, name, delimiter, value] of text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm)) {
    if (name && delimiter) outputs[name] = value ?? '';
  }
  return outputs;
}

describe('the bundled action with the real CLI', () => {
  it('the committed action/dist/index.js is the bundle of the current sources (npm run build:action)', () => {
    // action.yml runs the committed file, so a source change that is not rebuilt would ship old code.
    expect(readFileSync(bundle, 'utf8') === readFileSync(join(ROOT, 'action/dist/index.js'), 'utf8')).toBe(
      true,
    );
  });

  it('validate: annotations on the file, exit 1 for an invalid config, 0 for a valid one', async () => {
    writeFileSync(join(dir, 'broken.yaml'), 'version: 1\nignores: [\n');
    const bad = await step({ command: 'validate', config: 'broken.yaml' });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^::error file=broken\.yaml,line=\d+,col=\d+,title=svc-gitops /m);
    const good = await step({ command: 'validate' });
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(good.stdout).toContain('svc-gitops: svc-gitops.yaml: valid');
  });

  it('plan: writes the plan and the outputs plan-id, counts, has-changes and plan-file', async () => {
    const run = await step({ command: 'plan' });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    const planFile = join(runnerTemp, 'svc-gitops-plan.json');
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as {
      id: string;
      actions: unknown[];
      summary: Record<string, number>;
    };
    expect(plan.actions.length).toBeGreaterThan(0);
    expect(run.outputs).toEqual({
      'plan-id': plan.id,
      counts: JSON.stringify(plan.summary),
      'has-changes': 'true',
      'plan-file': planFile,
      'plan-text-file': join(runnerTemp, 'svc-gitops-plan.txt'),
    });
    // The full plan for people, beside the JSON: summary line, distinct changes, every action.
    const text = readFileSync(join(runnerTemp, 'svc-gitops-plan.txt'), 'utf8');
    expect(text.split('\n')[0]).toMatch(/^\d+ to ignore, \d+ to unignore, \d+ to update on \d+ sites/);
    expect(text).toContain('\nBy site:\n');
    expect(run.summary).toContain('**svc-gitops** plan for config');
    expect(run.stdout).toContain(plan.id);
    expect(github.requests).toEqual([]);
  });

  it('comment: posts the saved plan as the sticky comment and sets comment-url', async () => {
    const planFile = reviewedPlan;
    const run = await step({ command: 'comment', planFile });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    expect(github.comments.map((c) => c.issue)).toEqual([12]);
    expect(run.outputs['comment-url']).toMatch(/\/acme\/sites\/pull\/12#issuecomment-\d+$/);
    expect(run.outputs['plan-file']).toBe(planFile);
  });

  it('drift: the step succeeds with drift found, and sets the declared outputs has-drift and issue-number', async () => {
    const run = await step({ command: 'drift' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.outputs['has-drift']).toBe('true');
    expect(run.outputs['issue-number']).toMatch(/^\d+$/);
  });

  it('apply without plan-file: a clear error and exit 1, nothing applied', async () => {
    const run = await step({ command: 'apply' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('::error title=svc-gitops::command apply needs plan-file');
    expect(run.outputs).toEqual({});
    expect(existsSync(join(dir, '.svc-gitops'))).toBe(false);
  });

  it('apply with the reviewed plan: applies it, reports to the summary, and the next plan is empty', async () => {
    const planFile = mergedPlan;
    // The plan has changes, so the empty plan after apply is apply's doing.
    expect(JSON.parse(readFileSync(planFile, 'utf8')).actions.length).toBeGreaterThan(0);
    const run = await step({ command: 'apply', planFile, dashboard: merged });
    expect(run.status, run.stderr).toBe(0);
    expect(run.outputs['plan-id']).toBe(JSON.parse(readFileSync(planFile, 'utf8')).id);
    expect(run.summary).toContain('**svc-gitops** plan for config');
    expect(run.summary).toMatch(/^### .*svc-gitops apply$/m);
    expect(existsSync(join(runnerTemp, 'svc-gitops-apply-report.md'))).toBe(true);
    const after = await step({
      command: 'plan',
      planFile: join(runnerTemp, 'after.json'),
      dashboard: merged,
    });
    expect(after.status).toBe(0);
    expect(after.outputs['has-changes']).toBe('false');
  });

  it('rollout: applies the first wave alone, health-checks it, reports and names the state file', async () => {
    const run = await step({ command: 'rollout', config: 'rollout.yaml', dashboard: rolledOut });
    expect(run.status, run.stderr).toBe(0);
    expect(run.summary).toMatch(/^### .*svc-gitops apply$/m);
    expect(run.summary).toMatch(/wave canary: \d+ updated site\(s\) checked, 0 unhealthy/);
    expect(run.outputs['report-file']).toBe(join(runnerTemp, 'svc-gitops-apply-report.md'));
    expect(run.outputs['rollout-state-file']).toBe('rollout.rollout.json');
    // The history the apply appended, named for the upload step and linked from the report.
    const history = run.outputs['history-file'] as string;
    expect(history).toBe(join(stateDir(rolledOut), 'history.jsonl'));
    const records = readFileSync(history, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const updates = records.filter((record) => record.op === 'update');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((record) => record.outcome === 'done' && record.wave === 'canary')).toBe(true);
    expect(readFileSync(run.outputs['report-file'] as string, 'utf8')).toContain(
      'artifact `svc-gitops-history` of [this workflow run](https://github.com/acme/sites/actions/runs/77)',
    );
    const state = parseRolloutState(
      readFileSync(join(dir, 'rollout.rollout.json'), 'utf8'),
      'rollout.rollout.json',
      new Date('2100-01-01T00:00:00Z'),
    );
    expect(Object.keys(state.waves)).toEqual(['canary']);
    // The next scheduled run finds the later wave waiting for canary's day of health.
    const next = await step({ command: 'plan', config: 'rollout.yaml', dashboard: rolledOut });
    expect(next.stdout).toContain('wave "everyone" starts after wave "canary" has been healthy for 24h');
  });
});
