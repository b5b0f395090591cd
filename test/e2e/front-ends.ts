import * as fs from 'node:fs';
import { join } from 'node:path';
import { ACTION_INPUTS, runAction } from '../../src/cli/action.js';
import type { CliContext } from '../../src/cli/context.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { startFakeGitHub } from '../github/fake-github.js';
import { cli } from '../helpers/cli.js';
import { fastClientEnv } from '../helpers/sandbox.js';
import { connect } from '../mcp/helpers.js';

/**
 * One driver per front end for the gates matrix (gates-matrix.test.ts): the CLI in-process, the
 * Action's entry (`runAction`, inputs as INPUT_* variables, GitHub's API faked at the HTTP level)
 * and the tool server (SDK client over the in-memory transport). Each drives the same use cases
 * against the same sandbox and working directory, on an injected clock, and reports in one
 * shape, so a scenario states its outcome once for all three.
 */
export interface Step {
  /** Exit 0, or a tool result without isError. */
  ok: boolean;
  /** The first line a person sees: of stdout, the step summary, or the tool result's text. */
  lead: string;
  /** The first 10 lines of that view (the PR comment's, for a review). */
  head: string;
  /** Everything the run said (stdout, stderr, summary, report, tool text). */
  text: string;
}

/**
 * A moment, or a clock read each time the front end asks the time (a scenario whose clock moves
 * with what the sandbox has been sent: a window that closes once the first wave is written).
 */
export type At = Date | (() => Date);

export interface FrontEnd {
  /** The scheduled rollout: plan what is due at `at` and apply it. */
  rollout(at: Date): Promise<Step>;
  /** A plan made (and saved, reviewed or confirmed) at `planAt`, applied at `applyAt`. */
  planThenApply(planAt: Date, applyAt: At): Promise<Step>;
  /** What a reviewer or user sees of a plan before it is applied (the PR comment; svc_plan's text). */
  review(at: Date): Promise<Step>;
  /**
   * The plan-A/token-B misuse: plan A (site 1 only) is what the user wants, plan B (the whole
   * fleet) is made after it, and the agent tries to apply B on A's confirmation; then A itself is
   * applied the way this front end confirms it. Absent where no confirmation travels with a plan
   * (the CLI and the Action apply the plan file they are given, checked against its own id).
   */
  confirmOtherPlan?: (at: Date) => Promise<{ misuses: Step[]; applyA: Step }>;
  close(): Promise<void>;
}

export type FrontEndName = 'cli' | 'action' | 'mcp';

export interface FrontEndOptions {
  /**
   * The tool server's client declares MCP form elicitation and its user answers with this: true
   * accepts, false declines (the question is the server's own summary of the plan).
   */
  user?: (question: string) => boolean;
}
export const FRONT_ENDS: readonly FrontEndName[] = ['cli', 'action', 'mcp'];

const clockOf = (at: At): (() => Date) => (typeof at === 'function' ? at : () => at);

/** The first line that is not blank, a marker comment or markdown emphasis, and the first 10 lines. */
function viewOf(text: string): { lead: string; head: string } {
  const line = text.split('\n').find((l) => l.trim() !== '' && !l.startsWith('<!--') && !l.startsWith('::'));
  return { lead: (line ?? '').replace(/\*\*/g, '').trim(), head: text.split('\n').slice(0, 10).join('\n') };
}

export async function openFrontEnd(
  name: FrontEndName,
  sandbox: RunningSandbox,
  dir: string,
  env: Record<string, string> = {},
  options: FrontEndOptions = {},
): Promise<FrontEnd> {
  const base = { ...fastClientEnv(sandbox), HOME: dir, ...env };
  if (name === 'cli') return cliFrontEnd(dir, base);
  if (name === 'action') return actionFrontEnd(dir, base);
  return mcpFrontEnd(dir, base, options.user);
}

function cliFrontEnd(dir: string, env: Record<string, string>): FrontEnd {
  const run = async (argv: string[], at: At): Promise<Step> => {
    const result = await cli(argv, { cwd: dir, env, now: clockOf(at) });
    return { ok: result.code === 0, ...viewOf(result.stdout), text: result.stdout + result.stderr };
  };
  return {
    rollout: (at) => run(['apply', '--auto-approve'], at),
    async planThenApply(planAt, applyAt) {
      const saved = await run(['plan', '--out', 'plan.json'], planAt);
      if (!saved.ok) return saved;
      return run(['apply', 'plan.json'], applyAt);
    },
    review: (at) => run(['comment', '--dry-run'], at),
    close: async () => {},
  };
}

function actionFrontEnd(dir: string, given: Record<string, string>): FrontEnd {
  // Strict reaches the Action as its input, not as the job's variable.
  const { SVC_STRICT: strict = '', ...env } = given;
  const summary = join(dir, 'summary.md');
  const event = join(dir, 'event.json');
  fs.writeFileSync(event, JSON.stringify({ pull_request: { number: 7, head: { sha: 'abcdef1234567890' } } }));
  const github = startFakeGitHub();
  const step = async (inputs: Record<string, string>, at: At): Promise<Step> => {
    const fake = await github;
    fs.writeFileSync(summary, '');
    let stdout = '';
    let stderr = '';
    const ctx: CliContext = {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: {
        NO_COLOR: '1',
        ...env,
        GITHUB_ACTIONS: 'true',
        GITHUB_REPOSITORY: 'acme/sites',
        GITHUB_API_URL: fake.url,
        GITHUB_EVENT_PATH: event,
        GITHUB_WORKSPACE: dir,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_OUTPUT: join(dir, 'output.txt'),
        RUNNER_TEMP: dir,
        // As the runner sets them: every declared input, the defaults applied.
        ...Object.fromEntries(ACTION_INPUTS.map((input) => [`INPUT_${input.toUpperCase()}`, ''])),
        'INPUT_ARTIFACT-NAME': 'svc-gitops-plan',
        'INPUT_GITHUB-TOKEN': fake.token,
        INPUT_STRICT: strict,
        ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
      },
      cwd: dir,
      fs,
      signal: new AbortController().signal,
      now: clockOf(at),
    };
    const code = await runAction(ctx);
    const written = fs.readFileSync(summary, 'utf8');
    return { ok: code === 0, ...viewOf(written || stdout), text: `${written}\n${stdout}\n${stderr}` };
  };
  return {
    rollout: (at) => step({ command: 'rollout' }, at),
    async planThenApply(planAt, applyAt) {
      // The pull request's plan job saves the plan; the merge's apply job applies it reviewed.
      const planned = await step({ command: 'plan', 'plan-file': 'reviewed.json' }, planAt);
      if (!planned.ok) return planned;
      return step({ command: 'apply', 'plan-file': 'reviewed.json' }, applyAt);
    },
    async review(at) {
      const posted = await step({ command: 'comment' }, at);
      const body = (await github).comments.at(-1)?.body ?? '';
      return { ...posted, ...viewOf(body), text: `${body}\n${posted.text}` };
    },
    close: async () => (await github).close(),
  };
}

async function mcpFrontEnd(
  dir: string,
  env: Record<string, string>,
  user?: (question: string) => boolean,
): Promise<FrontEnd> {
  let now: () => Date = () => new Date(0);
  const clock = { now: () => now(), advance: () => {} };
  const answer = (question: { message: string }) =>
    user?.(question.message)
      ? { action: 'accept' as const, content: { apply: true } }
      : { action: 'decline' as const };
  const agent = await connect({ env, cwd: dir, home: dir, clock, ...(user ? { user: answer } : {}) });
  const call = async (
    tool: string,
    args: Record<string, unknown>,
    at: At,
  ): Promise<Step & { token?: string; planId?: string }> => {
    now = clockOf(at);
    const { result, isError, text } = await agent.call(tool, args);
    const token = typeof result.confirmation_token === 'string' ? result.confirmation_token : undefined;
    const planId = typeof result.plan_id === 'string' ? result.plan_id : undefined;
    return {
      ok: !isError,
      ...viewOf(text),
      text,
      ...(token ? { token } : {}),
      ...(planId ? { planId } : {}),
    };
  };
  // Without elicitation (this client declares none): the token, naming the plan it confirms.
  const apply = (planned: { token: string; planId?: string }, at: At) =>
    call(
      'svc_apply',
      { plan_id: planned.planId, confirmation_token: planned.token, user_confirmed: true },
      at,
    );
  return {
    async rollout(at) {
      const planned = await call('svc_plan', {}, at);
      return planned.token ? apply({ ...planned, token: planned.token }, at) : planned;
    },
    async planThenApply(planAt, applyAt) {
      const planned = await call('svc_plan', {}, planAt);
      return planned.token ? apply({ ...planned, token: planned.token }, applyAt) : planned;
    },
    review: (at) => call('svc_plan', {}, at),
    async confirmOtherPlan(at) {
      const planA = await call('svc_plan', { target: ['site-1.demo.test'] }, at);
      const planB = await call('svc_plan', {}, at);
      if (user) {
        // The server asks the user about the plan the call names, in its own words: naming B
        // with an agent's claim and a made-up token asks about B.
        const misuse = await call(
          'svc_apply',
          { plan_id: planB.planId, user_confirmed: true, confirmation_token: planA.token ?? 'made-up' },
          at,
        );
        return { misuses: [misuse], applyA: await call('svc_apply', { plan_id: planA.planId }, at) };
      }
      const misuses = [
        // A's token died with plan B: one apply token is outstanding at a time.
        await call(
          'svc_apply',
          { plan_id: planA.planId, confirmation_token: planA.token, user_confirmed: true },
          at,
        ),
        // B's token as the confirmation of A: a token confirms only the plan_id it was given for.
        await call(
          'svc_apply',
          { plan_id: planA.planId, confirmation_token: planB.token, user_confirmed: true },
          at,
        ),
        // A token without the plan it confirms applies nothing.
        await call('svc_apply', { confirmation_token: planB.token, user_confirmed: true }, at),
      ];
      // A, confirmed the token way: planned again, its fresh token names it.
      const again = await call('svc_plan', { target: ['site-1.demo.test'] }, at);
      return { misuses, applyA: await apply({ ...again, token: again.token ?? '' }, at) };
    },
    close: () => agent.close(),
  };
}
