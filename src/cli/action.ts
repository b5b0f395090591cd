import { isAbsolute, relative, resolve } from 'node:path';
import { resolveConfigPath } from '../engine/index.js';
import { EXIT } from '../errors.js';
import { appendOutputs, pullRequestBase } from '../github/index.js';
import { rolloutStatePath } from '../index.js';
import { linkHistory, markHistory } from './action-history.js';
import { proposeQuarantine } from './action-quarantine.js';
import type { CliContext } from './context.js';
import { runCli } from './run.js';

/**
 * The GitHub action (action.yml, `runs.using: node24`): its inputs become one or two command
 * lines of the CLI, run in this process. GitHub passes input `name` as the variable
 * `INPUT_NAME` (upper case, hyphens kept); an empty dashboard input keeps the job's `SVC_*`.
 */

/** What `command` may be, in the order the action's documentation lists them. */
export const ACTION_COMMANDS = [
  'validate',
  'plan',
  'comment',
  'drift',
  'status',
  'apply',
  'resume',
  'rollout',
] as const;
export type ActionCommand = (typeof ACTION_COMMANDS)[number];

/** The inputs action.yml declares, by name. */
export const ACTION_INPUTS = [
  'command',
  'config',
  'dashboard-url',
  'dashboard-user',
  'dashboard-app-password',
  'dashboard-token',
  'github-token',
  'plan-file',
  'artifact-name',
  'history-artifact-name',
  'state-dir',
  'strict',
  'fail-on-vulnerable',
] as const;
type InputName = (typeof ACTION_INPUTS)[number];

/** Input → the SVC_* variable it sets when given. */
const DASHBOARD_INPUTS: ReadonlyArray<readonly [InputName, string]> = [
  ['dashboard-url', 'SVC_URL'],
  ['dashboard-user', 'SVC_USER'],
  ['dashboard-app-password', 'SVC_APP_PASSWORD'],
  ['dashboard-token', 'SVC_TOKEN'],
];

/** Runs the CLI with argv in a context; the CLI's runCli unless a test stands in for it. */
export type RunCli = (argv: string[], ctx: CliContext) => Promise<number>;

export function actionInput(env: CliContext['env'], name: InputName): string {
  return (env[`INPUT_${name.toUpperCase()}`] ?? '').trim();
}

/**
 * The environment the CLI runs in: the job's, with the dashboard inputs that were given and,
 * for the commands that write to GitHub, the token. The inputs' own variables are left out, so
 * a credential reaches the CLI under one name only (the one it masks).
 */
function cliEnv(env: CliContext['env'], command: string): CliContext['env'] {
  const out: CliContext['env'] = Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.startsWith('INPUT_')),
  );
  for (const [input, variable] of DASHBOARD_INPUTS) {
    const value = actionInput(env, input);
    if (value !== '') out[variable] = value;
  }
  const token = actionInput(env, 'github-token');
  const writesGitHub = command === 'comment' || command === 'drift' || command === 'status';
  if (writesGitHub && token !== '') out.GITHUB_TOKEN = token;
  // `strict: true`: plan, comment and drift fail on names the dashboard does not know.
  const strict = actionInput(env, 'strict');
  if (strict !== '') out.SVC_STRICT = strict;
  // `fail-on-vulnerable: true`: plan, comment and drift exit 4 on sites vulnerable with no fix.
  const failOnVulnerable = actionInput(env, 'fail-on-vulnerable');
  if (failOnVulnerable !== '') out.SVC_FAIL_ON_VULNERABLE = failOnVulnerable;
  const stateDir = actionInput(env, 'state-dir');
  if (stateDir !== '') out.SVC_GITOPS_STATE_DIR = stateDir;
  return out;
}

/** Runs the action's command; returns the step's exit code. */
export async function runAction(ctx: CliContext, run: RunCli = runCli): Promise<number> {
  const command = actionInput(ctx.env, 'command') || 'plan';
  const env = cliEnv(ctx.env, command);
  const cli = (argv: string[], quiet = false) =>
    run(argv, { ...ctx, env, ...(quiet ? { stdout: { write: () => true } } : {}) });
  const config = actionInput(ctx.env, 'config');
  const configArgs = config === '' ? [] : ['-c', config];
  const planFileInput = actionInput(ctx.env, 'plan-file');
  const artifact = ['--artifact-name', actionInput(ctx.env, 'artifact-name') || 'svc-gitops-plan'];
  const runnerTemp = ctx.env.RUNNER_TEMP || ctx.cwd;
  const planFile = planFileInput || resolve(runnerTemp, 'svc-gitops-plan.json');
  // A pull request's plan leads with what it changes against its base (read with git; a base
  // that cannot be read leaves the whole plan, with the reason at the top of the comment).
  const base = pullRequestEvent(ctx.env) ? pullRequestBase(ctx.env, ctx.fs) : undefined;
  const compare = base === undefined ? [] : ['--compare-to', base];

  switch (command) {
    case 'validate':
      return cli(['validate', ...configArgs, '--format', 'github']);
    case 'plan':
      // `plan` is `comment --dry-run`: it plans, prints the comment, fills the summary and outputs.
      return cli(['comment', ...configArgs, '--out', planFile, ...artifact, ...compare, '--dry-run']);
    case 'comment':
      // A merge queue's run has no pull request to comment on: it plans and checks, as `plan`.
      if (ctx.env.GITHUB_EVENT_NAME === 'merge_group')
        return cli(['comment', ...configArgs, '--out', planFile, ...artifact, '--dry-run']);
      return planFileInput !== '' && ctx.fs.existsSync(resolve(ctx.cwd, planFileInput))
        ? cli(['comment', ...configArgs, '--plan-file', planFileInput, ...artifact])
        : cli(['comment', ...configArgs, '--out', planFile, ...artifact, ...compare]);
    case 'drift': {
      // Drift found (exit 2, the issue written) is what the step is for: it succeeds.
      const code = await cli(['drift', ...configArgs, '--issue']);
      return code === EXIT.changes ? EXIT.ok : code;
    }
    case 'status':
      // The dashboard issue: what is pending, soaking, waiting, held, quarantined, failed, vulnerable.
      return cli(['status', ...configArgs, '--issue']);
    case 'apply': {
      if (planFileInput === '') {
        ctx.stdout.write(
          '::error title=svc-gitops::command apply needs plan-file: the plan reviewed on the merged pull request (download its artifact first)\n',
        );
        return EXIT.error;
      }
      // Checks the reviewed plan's id before any dashboard call and sets the plan outputs.
      const checked = await cli(
        ['comment', ...configArgs, '--plan-file', planFileInput, ...artifact, '--dry-run'],
        true,
      );
      if (checked !== EXIT.ok) return checked;
      return report(ctx, env, cli, ['apply', '--reviewed', planFileInput, ...configArgs], runnerTemp);
    }
    case 'resume':
      // Finishes an interrupted apply from its journal (the state-dir restored from its artifact).
      return report(ctx, env, cli, ['apply', '--resume', ...configArgs], runnerTemp);
    case 'rollout': {
      // A scheduled apply of what is due now: windows, soak times and wave gates decide, health
      // checks between waves stop a broken rollout. `--auto-approve` refuses a plan that needs a
      // person (core, major, many sites): those go through a pull request.
      const code = await report(ctx, env, cli, ['apply', '--auto-approve', ...configArgs], runnerTemp);
      nameRolloutState(ctx, config);
      // A version the rollout quarantined becomes a reviewed hold: one pull request per config.
      await proposeQuarantine(ctx, actionInput(ctx.env, 'github-token'), config);
      return code;
    }
    default:
      // The value is not echoed into the workflow command, so it cannot start one of its own.
      ctx.stdout.write(
        `::error title=svc-gitops::unknown command (expected ${ACTION_COMMANDS.join(', ')})\n`,
      );
      ctx.stdout.write(`svc-gitops: command was ${JSON.stringify(command)}\n`);
      return EXIT.error;
  }
}

function pullRequestEvent(env: CliContext['env']): boolean {
  return env.GITHUB_EVENT_NAME === 'pull_request' || env.GITHUB_EVENT_NAME === 'pull_request_target';
}

/**
 * Runs apply with its report as markdown in RUNNER_TEMP, adds the report to the step summary and
 * names it in the output `report-file` (the apply template posts it to the merged pull request).
 */
async function report(
  ctx: CliContext,
  env: CliContext['env'],
  cli: (argv: string[]) => Promise<number>,
  argv: string[],
  runnerTemp: string,
): Promise<number> {
  const file = resolve(runnerTemp, 'svc-gitops-apply-report.md');
  ctx.fs.rmSync(file, { force: true });
  const history = markHistory(ctx, env);
  const code = await cli([...argv, '--format', 'markdown', '--out', file]);
  linkHistory(ctx, env, file, history, actionInput(ctx.env, 'history-artifact-name'));
  if (ctx.fs.existsSync(file)) {
    const summary = ctx.env.GITHUB_STEP_SUMMARY;
    if (summary) ctx.fs.appendFileSync(summary, ctx.fs.readFileSync(file, 'utf8'));
    const outputs = ctx.env.GITHUB_OUTPUT;
    if (outputs) appendOutputs(ctx.fs, outputs, { 'report-file': file });
  }
  return code;
}

/**
 * Names the rollout state file (first-seen versions, each wave's last apply and health) in the
 * output `rollout-state-file`, relative to the workspace, once the run has left one: the
 * scheduled template commits it so the next run, and every reviewer, sees what happened.
 */
function nameRolloutState(ctx: CliContext, config: string): void {
  const outputs = ctx.env.GITHUB_OUTPUT;
  if (!outputs) return;
  let configPath: string;
  try {
    configPath = resolveConfigPath(ctx.fs, ctx.cwd, config);
  } catch {
    return; // no desired state: apply has already said so, and no state file was written
  }
  const file = rolloutStatePath(ctx.cwd, configPath);
  if (!ctx.fs.existsSync(file)) return;
  const inWorkspace = relative(ctx.cwd, file);
  const shown = inWorkspace.startsWith('..') || isAbsolute(inWorkspace) ? file : inWorkspace;
  appendOutputs(ctx.fs, outputs, { 'rollout-state-file': shown });
}
