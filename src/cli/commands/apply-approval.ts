import { resolve } from 'node:path';
import {
  type ApprovalDecision,
  type Approved,
  approvePrompt,
  approveResume,
  approveResumeFromJournal,
  approveReviewed,
  approveSaved,
  configAtHand,
  type DashboardClient,
  EXIT,
  readPlanFile,
  refusalError,
  renderPlanText,
  type Settings,
  statePaths,
} from '../../index.js';
import type { DesiredState, RolloutHalt } from '../../types.js';
import { type CliContext, useColour } from '../context.js';
import { openDashboard, type Planned, planNow } from '../pipeline.js';
import { refuseWhileUnhealthy } from '../rollout.js';

/**
 * The four approval paths of `svc-gitops apply`, as the CLI reaches them: each gathers what its
 * library function (src/apply/approve-*.ts) decides on, shows what a person must see, and turns
 * the decision into an approved run, a thrown refusal or an exit code. None sends a write.
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
  overrideHealth?: boolean;
  quiet?: boolean;
}

/** What planNow needs from the flags of an approval path that plans now. */
function planFlags(flags: ApplyFlags) {
  return {
    ...(flags.config === undefined ? {} : { config: flags.config }),
    ...(flags.overrideHealth ? { overrideHealth: true } : {}),
    ...(flags.quiet ? { quiet: true } : {}),
  };
}

/** An approved run with the client and settings it runs with. */
export interface ApprovedRun {
  approved: Approved;
  client: DashboardClient;
  settings: Settings;
  /** The desired-state path the lock and journal are named by. */
  configPath: string;
  /** The desired state, when at hand: the rollout state file is recorded from it. */
  desired?: DesiredState;
}

/** A plan made now with no action: nothing runs, but `--out` still gets its (empty) report. */
export interface NothingToApply {
  kind: 'nothing-to-apply';
  planId: string;
  dashboardUrl: string;
  /** The plan was made while the rollout is halted. */
  halt?: RolloutHalt;
}

/** The run of an approval made on a plan made now: its client, settings and desired state. */
function approvedRun(decision: Parameters<typeof approvedOrThrow>[0], planned: Planned): ApprovedRun {
  const { client, settings, configPath, desired } = planned;
  return { approved: approvedOrThrow(decision), client, settings, configPath, desired };
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

/** An approval, or the refusal thrown as the error the CLI prints (exit 1). */
function approvedOrThrow(decision: ApprovalDecision): Approved {
  if (decision.kind === 'refused') throw refusalError(decision);
  if (decision.kind !== 'approved') throw new Error(`unexpected approval decision ${decision.kind}`);
  return decision;
}

export async function approveSavedPlan(
  ctx: CliContext,
  planfile: string,
  flags: ApplyFlags,
): Promise<ApprovedRun> {
  const plan = readPlanFile(ctx.fs, resolve(ctx.cwd, planfile));
  const { settings, client } = openDashboard(ctx);
  return closingOnError(client, async () => {
    const found = await configAtHand({ cwd: ctx.cwd, fs: ctx.fs, config: flags.config, signal: ctx.signal });
    const config = found && { ...found, named: flags.config !== undefined };
    const decision = approveSaved(plan, {
      dashboardUrl: client.url,
      safeMode: settings.safeMode,
      now: ctx.now(),
      config,
    });
    const desired = config?.desired?.digest === plan.desired_digest ? config.desired : undefined;
    return {
      approved: approvedOrThrow(decision),
      client,
      settings,
      configPath: config?.path ?? ctx.cwd,
      ...(desired ? { desired } : {}),
    };
  });
}

export async function approveNow(
  ctx: CliContext,
  flags: ApplyFlags,
): Promise<ApprovedRun | NothingToApply | number> {
  const planned = await planNow(ctx, {
    ...planFlags(flags),
    ...(flags.target === undefined ? {} : { targets: flags.target }),
  });
  const { plan, client, settings } = planned;
  return closingOnError(client, async () => {
    const preview = flags.format === 'text' ? ctx.stdout : ctx.stderr;
    preview.write(renderPlanText(plan, { colour: useColour(ctx, preview) }));
    const prompt = ctx.prompt;
    const decision = await approvePrompt(planned, {
      safeMode: settings.safeMode,
      requireUserConfirmation: settings.requireUserConfirmation,
      autoApprove: flags.autoApprove === true,
      dryRun: flags.dryRun === true,
      ...(prompt === undefined
        ? {}
        : {
            confirm: async () =>
              (
                await prompt(
                  `\nApply ${plan.actions.length} action(s) to ${client.url}?\n  Only 'yes' will be accepted to approve.\n  Enter a value: `,
                )
              ).trim() === 'yes',
          }),
    });
    if (decision.kind === 'nothing-to-apply') {
      await client.close();
      return {
        kind: 'nothing-to-apply',
        planId: plan.id,
        dashboardUrl: client.url,
        ...(plan.rollout_halt ? { halt: plan.rollout_halt } : {}),
      };
    }
    if (decision.kind === 'cancelled') {
      ctx.stderr.write('svc-gitops: apply cancelled: nothing was changed\n');
      await client.close();
      return EXIT.error;
    }
    return approvedRun(decision, planned);
  });
}

export async function approveReviewedPlan(
  ctx: CliContext,
  reviewedFile: string,
  flags: ApplyFlags,
): Promise<ApprovedRun> {
  const reviewed = readPlanFile(ctx.fs, resolve(ctx.cwd, reviewedFile));
  const planned = await planNow(ctx, planFlags(flags));
  const { client, settings } = planned;
  return closingOnError(client, async () => {
    const decision = approveReviewed(reviewed, planned, {
      dashboardUrl: client.url,
      safeMode: settings.safeMode,
    });
    return approvedRun(decision, planned);
  });
}

export async function approveResumed(
  ctx: CliContext,
  flags: ApplyFlags,
  stateDir: string,
): Promise<ApprovedRun> {
  // With a desired state at hand, plan now and run what is left of the interrupted run; with
  // none (an interrupted `apply PLANFILE` where only the plan file was), finish the run's own
  // recorded actions that the fresh read shows still needed.
  const config = await configAtHand({ cwd: ctx.cwd, fs: ctx.fs, config: flags.config, signal: ctx.signal });
  if (config !== undefined || flags.config !== undefined) {
    const planned = await planNow(ctx, planFlags(flags));
    const { client } = planned;
    return closingOnError(client, async () => {
      const paths = statePaths(stateDir, client.url);
      const decision = approveResume(planned, { fs: ctx.fs, paths });
      // Only an unfinished run is resumed; one a health check stopped waits for a passing check.
      if (decision.kind === 'approved') refuseWhileUnhealthy(planned.rollout);
      return approvedRun(decision, planned);
    });
  }
  const { settings, client } = openDashboard(ctx);
  return closingOnError(client, async () => {
    const paths = statePaths(stateDir, client.url);
    const live = await client.readLive({ signal: ctx.signal });
    const decision = approveResumeFromJournal({ fs: ctx.fs, paths, live, now: ctx.now() });
    return { approved: approvedOrThrow(decision), client, settings, configPath: ctx.cwd };
  });
}
