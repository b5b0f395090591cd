import type * as nodeFs from 'node:fs';
import { SvcError } from '../errors.js';
import { createGitHubClient, type GitHubClient } from './client.js';
import { WORKFLOW_TOKEN_HINT } from './github-error.js';
import { parseRepository, type Repository } from './repository.js';

/**
 * What a GitHub Actions run tells a step through its environment. The environment and file
 * system are passed in (commands never read process.env). Nothing here holds the token except
 * `githubToken`, whose result goes straight to the client.
 */
export type Env = Record<string, string | undefined>;

export interface ActionsRun {
  /** GITHUB_SERVER_URL, default https://github.com. */
  serverUrl: string;
  /** GITHUB_API_URL, default https://api.github.com. */
  apiUrl: string;
  /** Link to this workflow run (its artifacts are listed there), when known. */
  runUrl?: string;
  /** Repository root (GITHUB_WORKSPACE) for repository-relative paths. */
  workspace?: string;
  stepSummaryPath?: string;
  outputPath?: string;
}

export function actionsRun(env: Env): ActionsRun {
  const serverUrl = (nonEmpty(env.GITHUB_SERVER_URL) ?? 'https://github.com').replace(/\/+$/, '');
  const run: ActionsRun = { serverUrl, apiUrl: nonEmpty(env.GITHUB_API_URL) ?? 'https://api.github.com' };
  const repository = nonEmpty(env.GITHUB_REPOSITORY);
  const runId = nonEmpty(env.GITHUB_RUN_ID);
  if (repository && runId && /^\d+$/.test(runId))
    run.runUrl = `${serverUrl}/${repository}/actions/runs/${runId}`;
  const optional = {
    workspace: env.GITHUB_WORKSPACE,
    stepSummaryPath: env.GITHUB_STEP_SUMMARY,
    outputPath: env.GITHUB_OUTPUT,
  } as const;
  for (const [key, value] of Object.entries(optional)) {
    const v = nonEmpty(value);
    if (v !== undefined) run[key as keyof typeof optional] = v;
  }
  return run;
}

/** `alternative`: what a user outside a workflow can do instead, added to the hint. */
export function repositoryFromEnv(env: Env, alternative?: string): Repository {
  return parseRepository(env.GITHUB_REPOSITORY, 'GITHUB_REPOSITORY', alternative);
}

export function githubToken(env: Env): string {
  const token = nonEmpty(env.GITHUB_TOKEN);
  if (token === undefined) {
    throw new SvcError('USAGE', 'GITHUB_TOKEN is not set', {
      hint: WORKFLOW_TOKEN_HINT,
    });
  }
  return token;
}

/**
 * The pull request number: `--pr` when given, else from the event payload at GITHUB_EVENT_PATH
 * (`pull_request.number` for pull_request events, `issue.number` for comments on a PR).
 */
export function pullRequestNumber(
  env: Env,
  fs: Pick<typeof nodeFs, 'readFileSync'>,
  explicit?: string,
): number {
  if (explicit !== undefined) return positiveInteger(explicit, '--pr');
  const eventPath = nonEmpty(env.GITHUB_EVENT_PATH);
  if (eventPath === undefined) {
    throw new SvcError('USAGE', 'no pull request number: pass --pr N or run inside a pull_request workflow', {
      hint: 'GitHub Actions sets GITHUB_EVENT_PATH to the event payload',
    });
  }
  let event: { pull_request?: { number?: unknown }; issue?: { number?: unknown; pull_request?: unknown } };
  try {
    event = JSON.parse(fs.readFileSync(eventPath, 'utf8') as string);
  } catch (error) {
    throw new SvcError(
      'IO_ERROR',
      `cannot read the event payload ${eventPath}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const number = event?.pull_request?.number ?? (event?.issue?.pull_request ? event.issue.number : undefined);
  if (typeof number !== 'number') {
    throw new SvcError(
      'USAGE',
      `the ${env.GITHUB_EVENT_NAME ?? 'current'} event is not about a pull request`,
      {
        hint: 'run `svc-gitops comment` on pull_request events, or pass --pr N',
      },
    );
  }
  return positiveInteger(String(number), 'the event payload');
}

/**
 * The commit the run is about as people see it: a pull request's head commit (GITHUB_SHA is the
 * temporary merge commit there), else GITHUB_SHA. Undefined when neither is known.
 */
export function eventCommitSha(env: Env, fs: Pick<typeof nodeFs, 'readFileSync'>): string | undefined {
  const eventPath = nonEmpty(env.GITHUB_EVENT_PATH);
  if (eventPath !== undefined) {
    try {
      const event = JSON.parse(fs.readFileSync(eventPath, 'utf8') as string) as {
        pull_request?: { head?: { sha?: unknown } };
      };
      const head = event?.pull_request?.head?.sha;
      if (typeof head === 'string' && /^[0-9a-f]{7,64}$/.test(head)) return head;
    } catch {
      // An unreadable payload only loses the commit in the time stamp line.
    }
  }
  return nonEmpty(env.GITHUB_SHA);
}

/**
 * What a pull request's plan is compared with: the base commit of the event payload
 * (`pull_request.base.sha`), else `origin/` and GITHUB_BASE_REF (the base branch, set on
 * pull_request events). Undefined on other events: there is no base to compare with.
 */
export function pullRequestBase(env: Env, fs: Pick<typeof nodeFs, 'readFileSync'>): string | undefined {
  const eventPath = nonEmpty(env.GITHUB_EVENT_PATH);
  if (eventPath !== undefined) {
    try {
      const event = JSON.parse(fs.readFileSync(eventPath, 'utf8') as string) as {
        pull_request?: { base?: { sha?: unknown } };
      };
      const base = event?.pull_request?.base?.sha;
      if (typeof base === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(base)) return base;
    } catch {
      // An unreadable payload leaves the base branch's name.
    }
  }
  const branch = nonEmpty(env.GITHUB_BASE_REF);
  // A branch name git would take as an option or a range is not passed on.
  if (branch === undefined || branch.startsWith('-') || /\.\.|[\s~^:?*[\\]/.test(branch)) return undefined;
  return `origin/${branch}`;
}

function positiveInteger(value: string, source: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < 1) {
    throw new SvcError('USAGE', `${source}: not a pull request number: ${JSON.stringify(value)}`);
  }
  return number;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** A client for the run's GitHub (GITHUB_API_URL) with GITHUB_TOKEN. */
export function githubClientFromEnv(env: Env, signal?: AbortSignal): GitHubClient {
  const options = { token: githubToken(env), apiUrl: actionsRun(env).apiUrl };
  return createGitHubClient(signal ? { ...options, signal } : options);
}
