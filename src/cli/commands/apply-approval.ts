import { resolve } from 'node:path';
import {
  checkIntegrity,
  checkNotExpired,
  checkSafeMode,
  checkSameDashboard,
  checkSameDesiredState,
} from '../../apply/guard.js';
import type { HeldBack } from '../../apply/index.js';
import { lastUnfinishedRun, readJournal } from '../../apply/journal.js';
import { readPlanFile } from '../../apply/plan-file.js';
import { statePaths } from '../../apply/state-dir.js';
import { resumeSubset, reviewedSubset } from '../../apply/subset.js';
import { waveLimits } from '../../apply/wave-limits.js';
import { loadDesiredState, resolveConfigPath } from '../../config/index.js';
import type { DashboardClient } from '../../dashboard/client.js';
import { EXIT, SvcError } from '../../errors.js';
import { REMAINING_WAVE } from '../../plan/index.js';
import type { ApplyReport } from '../../render/apply-report.js';
import { renderPlanText } from '../../render/plan-text.js';
import type { Action, DashboardCapabilities, DesiredState, Plan } from '../../types.js';
import { type CliContext, useColour } from '../context.js';
import { openDashboard, type Planned, planNow } from '../pipeline.js';

/**
 * The four approval paths of `svc-gitops apply`. Each checks what its approval covers and
 * returns an `Approved` (the plan, what to hold back, how it was approved), or an exit code
 * when there is nothing to apply; none of them sends a write. Checks that must not race with
 * another apply (the live re-check of a saved plan, single use) run later, under the lock.
 */

export interface ApplyFlags {
  config?: string;
  autoApprove?: boolean;
  reviewed?: string;
  resume?: boolean;
  target?: string[];
  dryRun?: boolean;
  format: string;
  out?: string;
  stateDir?: string;
}

/** Everything an approval path hands to the common run. */
export interface Approved {
  client: DashboardClient;
  settings: { safeMode: boolean; concurrency: number };
  plan: Plan;
  /** Known when the approval path read live state; saved plans learn it from the re-check. */
  capabilities?: DashboardCapabilities;
  configPath: string;
  approval: ApplyReport['approval'];
  maxFailures: (wave: string | undefined) => number;
  holdBack?: (action: Action) => HeldBack | undefined;
  reviewed?: ApplyReport['reviewed'];
  /** Saved plans: re-check the live facts and mark the plan used, under the lock. */
  savedPlan?: boolean;
  warnings: string[];
}

/** The fields every approval path that planned now shares (the rest say how it was approved). */
function approvedFrom(planned: Planned, approval: Approved['approval']) {
  return {
    client: planned.client,
    settings: planned.settings,
    plan: planned.plan,
    capabilities: planned.live.capabilities,
    configPath: planned.configPath,
    approval,
    maxFailures: waveLimits(planned.desired),
  };
}

/** Closes the client when preparing an approval fails, so no socket outlives the command. */
async function closingOnError<T>(client: DashboardClient, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await client.close();
    throw error;
  }
}

export async function approveSavedPlan(
  ctx: CliContext,
  planfile: string,
  flags: ApplyFlags,
): Promise<Approved> {
  const plan = readPlanFile(ctx.fs, resolve(ctx.cwd, planfile));
  checkIntegrity(plan);
  checkNotExpired(plan, ctx.now());
  const { settings, client } = openDashboard(ctx);
  return closingOnError(client, async () => {
    checkSameDashboard(plan, client.url);
    checkSafeMode(plan.actions, settings.safeMode);
    const config = await savedPlanConfig(ctx, plan, flags.config);
    return {
      client,
      settings,
      plan,
      configPath: config.path,
      approval: 'saved-plan',
      maxFailures: waveLimits(config.desired),
      savedPlan: true,
      warnings: config.warning === undefined ? [] : [config.warning],
    };
  });
}

/**
 * The config a saved plan was made from, when it is at hand: it names the lock and journal,
 * and its waves give the failure thresholds. A saved plan applies without it (CI may hold only
 * the plan file); named waves then stop at their first failure.
 */
async function savedPlanConfig(
  ctx: CliContext,
  plan: Plan,
  explicit: string | undefined,
): Promise<{ path: string; desired?: DesiredState; warning?: string | undefined }> {
  let path: string;
  try {
    path = resolveConfigPath(ctx.fs, ctx.cwd, explicit);
  } catch {
    return { path: ctx.cwd, warning: waveWarning(plan, 'no desired-state config was found') };
  }
  const { desired } = await loadDesiredState({ path, fs: ctx.fs, cwd: ctx.cwd });
  if (desired?.digest === plan.desired_digest) return { path, desired };
  return { path, warning: waveWarning(plan, `${path} is not the config the plan was made from`) };
}

function waveWarning(plan: Plan, why: string): string | undefined {
  const named = plan.actions.some((action) => action.wave !== undefined && action.wave !== REMAINING_WAVE);
  return named ? `${why}: every wave stops at its first failed update` : undefined;
}

export async function approveNow(ctx: CliContext, flags: ApplyFlags): Promise<Approved | number> {
  const planned = await planNow(ctx, {
    ...(flags.config === undefined ? {} : { config: flags.config }),
    ...(flags.target === undefined ? {} : { targets: flags.target }),
  });
  const { plan, client, settings } = planned;
  return closingOnError(client, async () => {
    const preview = flags.format === 'text' ? ctx.stdout : ctx.stderr;
    preview.write(renderPlanText(plan, { colour: useColour(ctx, preview) }));
    if (plan.actions.length === 0) {
      await client.close();
      return EXIT.ok;
    }
    checkSafeMode(plan.actions, settings.safeMode);
    const approval = flags.dryRun
      ? 'prompt'
      : await confirm(ctx, plan, client.url, settings.requireUserConfirmation, flags);
    if (approval === undefined) {
      ctx.stderr.write('svc-gitops: apply cancelled: nothing was changed\n');
      await client.close();
      return EXIT.error;
    }
    return {
      ...approvedFrom(planned, approval),
      warnings: [],
    };
  });
}

/**
 * The approval of a plan made now. A plan the approval rules mark `needs_approval` needs a
 * person (the prompt) or a saved/reviewed plan: --auto-approve alone never satisfies it.
 */
async function confirm(
  ctx: CliContext,
  plan: Plan,
  dashboard: string,
  requireUserConfirmation: boolean,
  flags: ApplyFlags,
): Promise<ApplyReport['approval'] | undefined> {
  if (!plan.needs_approval && flags.autoApprove) return 'auto-approve';
  if (!plan.needs_approval && !requireUserConfirmation) return 'no-confirmation';
  if (ctx.prompt) {
    const answer = await ctx.prompt(
      `\nApply ${plan.actions.length} action(s) to ${dashboard}?\n  Only 'yes' will be accepted to approve.\n  Enter a value: `,
    );
    return answer.trim() === 'yes' ? 'prompt' : undefined;
  }
  if (plan.needs_approval) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      'this plan needs a person’s approval (see its needs-approval notes); --auto-approve is not enough',
      {
        hint: 'run apply at a terminal, or save the plan (`svc-gitops plan --out plan.json`), have it reviewed and run `svc-gitops apply plan.json`',
      },
    );
  }
  throw new SvcError('PREVIEW_REQUIRED', 'there is no terminal to confirm the plan at', {
    hint: 'pass --auto-approve, set requireUserConfirmation: false, or apply a saved plan file',
  });
}

export async function approveReviewed(
  ctx: CliContext,
  reviewedFile: string,
  flags: ApplyFlags,
): Promise<Approved> {
  const reviewed = readPlanFile(ctx.fs, resolve(ctx.cwd, reviewedFile));
  checkIntegrity(reviewed);
  const planned = await planNow(ctx, flags.config === undefined ? {} : { config: flags.config });
  const { plan, client, settings } = planned;
  return closingOnError(client, async () => {
    checkSameDashboard(reviewed, client.url);
    checkSameDesiredState(reviewed, planned.desired.digest);
    const subset = reviewedSubset(plan, reviewed);
    checkSafeMode(
      plan.actions.filter((action) => !subset.holdBack(action)),
      settings.safeMode,
    );
    return {
      ...approvedFrom(planned, 'reviewed'),
      holdBack: subset.holdBack,
      reviewed: { notNeeded: subset.notNeeded, unreviewed: subset.unapproved },
      warnings: [],
    };
  });
}

export async function approveResume(ctx: CliContext, flags: ApplyFlags, stateDir: string): Promise<Approved> {
  const planned = await planNow(ctx, flags.config === undefined ? {} : { config: flags.config });
  const { plan, client } = planned;
  return closingOnError(client, async () => {
    const paths = statePaths(stateDir, client.url, resolve(ctx.cwd, planned.configPath));
    const unfinished = lastUnfinishedRun(readJournal(ctx.fs, paths.journal));
    if (!unfinished) {
      throw new SvcError(
        'PREVIEW_REQUIRED',
        'there is no interrupted apply to resume for this dashboard and config',
        {
          hint: 'run `svc-gitops apply` to plan and apply',
        },
      );
    }
    if (unfinished.desiredDigest !== planned.desired.digest) {
      throw new SvcError(
        'PREVIEW_REQUIRED',
        'the desired-state files changed since the interrupted apply started',
        {
          hint: 'resume only finishes what was approved; run `svc-gitops apply` to plan and approve the new state',
        },
      );
    }
    const subset = resumeSubset(plan, unfinished.actions);
    const warnings =
      unfinished.inDoubtCalls > 0
        ? [
            `${unfinished.inDoubtCalls} call(s) of the interrupted run got no recorded answer; the fresh read decided what is left`,
          ]
        : [];
    return {
      ...approvedFrom(planned, 'resume'),
      holdBack: subset.holdBack,
      warnings,
    };
  });
}
