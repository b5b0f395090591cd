import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  actionCommands,
  isOwnAction,
  npmInstallsOfSvcGitops,
  undeclaredInputs,
  unknownOutputs,
} from './action-usage.js';
import { type Job, parseAction, parseWorkflow, ROOT, read, workflowFiles } from './workflow-lint.js';

/** action.yml itself, and how the templates and the project's CI use it. */
const action = parseAction();
const files = workflowFiles();
const EXPR = '$' + '{{';
const ownSteps = (file: string) =>
  Object.values(parseWorkflow(file).jobs).flatMap((job) => job.steps.filter(isOwnAction));

describe('action.yml', () => {
  it('is a JavaScript action on node24 with the documented inputs and outputs', () => {
    expect(action.name).toBe('svc-gitops');
    expect(action.description.length).toBeGreaterThan(10);
    expect(action.runs).toEqual({ using: 'node24', main: 'action/dist/index.js' });
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
        'state-dir',
      ]),
    );
    expect(Object.keys(action.outputs)).toEqual(
      expect.arrayContaining(['plan-id', 'counts', 'has-changes', 'plan-file', 'report-file']),
    );
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
    for (const [name, output] of Object.entries(action.outputs))
      expect(output.description, name).toBeTruthy();
    expect(actionCommands()).toEqual([
      'validate',
      'plan',
      'comment',
      'drift',
      'status',
      'apply',
      'resume',
      'rollout',
    ]);
  });

  it('runs a committed bundle: no steps, so no build, install or Node.js setup in the job', () => {
    // The bundle is tracked by git (dist/ is ignored everywhere else) and is an ES module.
    expect(existsSync(join(ROOT, action.runs.main ?? ''))).toBe(true);
    expect(read('.gitignore')).toContain('!/action/dist/');
    expect(read(action.runs.main ?? '').slice(0, 200)).toContain("from 'node:module'");
  });

  it('interpolates no expression but the github-token default', () => {
    const expressions = [...read('action.yml').matchAll(/\$\{\{[^}]*\}\}/g)].map((m) => m[0]);
    expect(expressions).toEqual([`${EXPR} github.token }}`]);
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
      expect(actionCommands()).toContain(step.with?.command);
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
