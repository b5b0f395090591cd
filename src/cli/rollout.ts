import type { DashboardClient } from '../dashboard/index.js';
import { isSvcError, SvcError } from '../errors.js';
import {
  finishRollout as finishWith,
  type PlannedRollout,
  prepareRollout as prepareWith,
  type RolloutContext,
  recordApply as recordWith,
  stillUnhealthy,
} from '../index.js';
import { terminalText } from '../render/index.js';
import type { ApplyResult, DesiredState, LiveState, PlanRollout } from '../types.js';
import type { CliContext } from './context.js';
import { createCountProgressPrinter } from './count-progress.js';

export { rolloutStatePath } from '../index.js';

/**
 * The CLI's side of the rollout state (the engine's src/engine/rollout.ts does the work): the
 * health checks' progress and findings on stderr, the note that the file was written, and the
 * hints in the CLI's words.
 */
function rolloutContext(ctx: CliContext): RolloutContext {
  return { fs: ctx.fs, cwd: ctx.cwd, now: ctx.now, signal: ctx.signal };
}

/** Writes through `write`; an unwritable file is refused with the CLI's hint. */
function recorded(ctx: CliContext, write: () => string | undefined): void {
  let path: string | undefined;
  try {
    path = write();
  } catch (error) {
    if (!isSvcError(error) || error.code !== 'IO_ERROR' || !error.message.startsWith('cannot write'))
      throw error;
    throw new SvcError('IO_ERROR', error.message, {
      hint: 'the rollout state lives beside the desired state: make that directory writable',
      cause: error,
    });
  }
  if (path !== undefined)
    ctx.stderr.write(`Recorded the rollout state in ${path} (commit it with the desired state).\n`);
}

/** Before planning: the recorded state and the plan-time health checks, reported on stderr. */
export async function prepareRollout(
  ctx: CliContext,
  desired: DesiredState,
  live: LiveState,
  client: Pick<DashboardClient, 'checkSites'>,
  configPath: string,
  options: { overrideHealth: boolean; completeRead: boolean; at?: Date | undefined },
): Promise<PlanRollout | undefined> {
  return prepareWith(rolloutContext(ctx), {
    desired,
    live,
    client,
    configPath,
    ...options,
    checking: (wave) =>
      createCountProgressPrinter(
        ctx.stderr,
        () => ctx.now().getTime(),
        `health: checking wave ${wave} at plan time, sites`,
      ),
    checked: (wave, count, unhealthy, refused) => {
      ctx.stderr.write(
        `Checked the health of ${count} site(s) of wave ${wave}: ${unhealthy.length === 0 ? 'healthy' : `${unhealthy.length} unhealthy`}.\n`,
      );
      if (refused.length > 0) {
        ctx.stderr.write(
          `svc-gitops: warning: the dashboard answered ${refused.length} health check(s) of wave ${wave} with an error (first: ${terminalText(refused[0] ?? '')}); those sites count as unhealthy\n`,
        );
      }
    },
  });
}

/** After planning: the state with the waves the plan shows done is written. */
export function finishRollout(ctx: CliContext, configPath: string, planned: PlannedRollout): void {
  recorded(ctx, () => finishWith(rolloutContext(ctx), configPath, planned));
}

/** After an apply: each named wave that ran updates records when, and what its health check found. */
export function recordApply(
  ctx: CliContext,
  desired: DesiredState,
  configPath: string,
  result: ApplyResult,
): void {
  recorded(ctx, () => recordWith(rolloutContext(ctx), desired, configPath, result));
}

/**
 * `apply --resume` continues a rollout a health check stopped only once a new check passes:
 * while a wave's recorded unhealthy sites are still unhealthy (and no --override-health), it is
 * refused, and the interrupted run stays open for the next try.
 */
export function refuseWhileUnhealthy(rollout: PlanRollout | undefined): void {
  const held = stillUnhealthy(rollout);
  if (!held) return;
  const { wave, unhealthy } = held;
  const sites = unhealthy
    .slice(0, 5)
    .map((site) => `site ${site.site_id} ${site.site_url} (${site.problem})`)
    .join(', ');
  throw new SvcError(
    'UNHEALTHY',
    `wave ${wave} still has ${unhealthy.length} unhealthy site(s): ${sites}${unhealthy.length > 5 ? ', …' : ''}`,
    {
      hint: 'fix the sites and run `svc-gitops apply --resume` again, or continue anyway with `--override-health`',
    },
  );
}
