import { resolve } from 'node:path';
import {
  type ApprovalDecision,
  type Approved,
  approvePrompt,
  approveResume,
  approveResumeFromJournal,
  approveReviewed,
  approveSaved,
  type Refused,
  statePaths,
} from '../apply/index.js';
import { SvcError } from '../errors.js';
import type { ApplyReport } from '../render/index.js';
import type { DesiredState, Plan } from '../types.js';
import { configAtHand } from './desired.js';
import { readPlanFile } from './plan-file.js';
import { stillUnhealthy } from './rollout.js';
import { approveHeldPlan, nothingToApply } from './session-held.js';
import type { PlanDeps } from './session-plan.js';
import { planUseCase } from './session-plan.js';
import type { PlanRequest, SessionPlan } from './session-types.js';

/**
 * How an apply is approved, as data a front end fills in. Four paths:
 * - `now`: plan now; `show` sees the plan, then `confirm` asks the person (absent: nobody can be asked);
 * - `saved`: a saved plan file, checked by the guard (its single use and live facts under the apply lock);
 * - `reviewed`: plan now from the merged config, run only the reviewed actions still needed;
 * - `resume`: what is left of the interrupted run in the journal under `stateDir`;
 * - `held`: a plan made earlier in this process, checked as a saved plan is.
 */
export type ApproveRequest =
  | {
      path: 'now';
      plan: PlanRequest;
      autoApprove?: boolean | undefined;
      /** Approves for listing the calls only: nothing will be sent, so nobody is asked. */
      dryRun?: boolean | undefined;
      show?: ((planned: SessionPlan) => void) | undefined;
      /** Asks the person whether to apply `plan` to the dashboard at `dashboardUrl`: true only for an explicit yes. */
      confirm?: ((plan: Plan, dashboardUrl: string) => Promise<boolean>) | undefined;
    }
  | { path: 'saved'; planFile: string; config?: string | undefined }
  | { path: 'reviewed'; reviewedFile: string; plan: PlanRequest }
  | { path: 'resume'; stateDir: string; plan: PlanRequest }
  /**
   * A plan the front end holds (the tool server's), approved as a saved plan (session-held.ts);
   * `dryRun`: for listing the calls only, so safe mode is not judged and no plan is "nothing".
   */
  | { path: 'held'; planned: SessionPlan; dryRun?: boolean | undefined };

/** What the session decided. Deciding never sends a write. */
export type Approval =
  | {
      kind: 'approved';
      approved: Approved;
      dashboardUrl: string;
      /** The desired-state path the journal is named by. */
      configPath: string;
      /** The desired state the plan was made from, when at hand: the rollout state records from it. */
      desired?: DesiredState;
    }
  /** The plan made now has no action: nothing runs, and this is the report of that. */
  | { kind: 'nothing-to-apply'; report: ApplyReport }
  /** The person answered something other than yes. */
  | { kind: 'cancelled' }
  | Refused;

export async function approveUseCase(deps: PlanDeps, request: ApproveRequest): Promise<Approval> {
  switch (request.path) {
    case 'now':
      return approveNow(deps, request);
    case 'saved':
      return approveSavedFile(deps, request.planFile, request.config);
    case 'reviewed': {
      const reviewed = readPlanFile(deps.options.fs, resolve(deps.options.cwd, request.reviewedFile));
      const planned = await planUseCase(deps, request.plan);
      const decision = approveReviewed(reviewed, planned, {
        dashboardUrl: deps.client().url,
        safeMode: deps.settings().safeMode,
      });
      return approval(deps, decision, planned.configPath, planned.desired);
    }
    case 'resume':
      return approveResumed(deps, request.stateDir, request.plan);
    case 'held': {
      const { planned } = request;
      const decision = approveHeldPlan(deps, planned, request.dryRun === true);
      if (decision.kind === 'nothing-to-apply' && 'report' in decision) return decision;
      return approval(deps, decision, planned.configPath, planned.desired);
    }
  }
}

type NowRequest = Extract<ApproveRequest, { path: 'now' }>;

async function approveNow(deps: PlanDeps, request: NowRequest): Promise<Approval> {
  const planned = await planUseCase(deps, request.plan);
  request.show?.(planned);
  const settings = deps.settings();
  const confirm = request.confirm;
  const decision = await approvePrompt(planned, {
    safeMode: settings.safeMode,
    requireUserConfirmation: settings.requireUserConfirmation,
    autoApprove: request.autoApprove === true,
    dryRun: request.dryRun === true,
    ...(confirm ? { confirm: (plan: Plan) => confirm(plan, deps.client().url) } : {}),
  });
  if (decision.kind === 'nothing-to-apply') {
    // Approved as the request would have approved a plan that needs nobody.
    return nothingToApply(deps, planned.plan, request.autoApprove ? 'auto-approve' : 'no-confirmation');
  }
  return approval(deps, decision, planned.configPath, planned.desired);
}

async function approveSavedFile(
  deps: PlanDeps,
  planFile: string,
  named: string | undefined,
): Promise<Approval> {
  const { fs, cwd, signal } = deps.options;
  const plan = readPlanFile(fs, resolve(cwd, planFile));
  const client = deps.client();
  const found = await configAtHand({ cwd, fs, config: named, signal });
  const config = found && { ...found, named: named !== undefined };
  const decision = approveSaved(plan, {
    dashboardUrl: client.url,
    safeMode: deps.settings().safeMode,
    now: deps.options.now(),
    config,
  });
  const desired = config?.desired?.digest === plan.desired_digest ? config.desired : undefined;
  return approval(deps, decision, config?.path ?? cwd, desired);
}

/**
 * With a desired state at hand, plan now and run what is left of the interrupted run; with none
 * (an interrupted apply of a plan file where only the file was), finish the run's own recorded
 * actions that a fresh read shows still needed. A run a health check stopped resumes only once
 * a new check passes.
 */
async function approveResumed(deps: PlanDeps, stateDir: string, request: PlanRequest): Promise<Approval> {
  const { fs, cwd, signal } = deps.options;
  const config = await configAtHand({ cwd, fs, config: request.config, signal });
  if (config !== undefined || request.config !== undefined) {
    const planned = await planUseCase(deps, request);
    const paths = statePaths(resolve(cwd, stateDir), deps.client().url);
    const decision = approveResume(planned, { fs, paths });
    if (decision.kind === 'approved') refuseWhileUnhealthy(planned);
    return approval(deps, decision, planned.configPath, planned.desired);
  }
  const client = deps.client();
  const paths = statePaths(resolve(cwd, stateDir), client.url);
  const live = await client.readLive(signal ? { signal } : {});
  return approval(deps, approveResumeFromJournal({ fs, paths, live, now: deps.options.now() }), cwd);
}

/** A rollout stopped with unhealthy sites that a plan-time re-check still finds unhealthy: UNHEALTHY. */
function refuseWhileUnhealthy(planned: SessionPlan): void {
  const held = stillUnhealthy(planned.rollout);
  if (!held) return;
  const { wave, unhealthy } = held;
  const sites = unhealthy
    .slice(0, 5)
    .map((site) => `site ${site.site_id} ${site.site_url} (${site.problem})`)
    .join(', ');
  throw new SvcError(
    'UNHEALTHY',
    `wave ${wave} still has ${unhealthy.length} unhealthy site(s): ${sites}${unhealthy.length > 5 ? ', …' : ''}`,
    { details: { reason: 'resume-while-unhealthy', wave, unhealthy: unhealthy.length } },
  );
}

function approval(
  deps: PlanDeps,
  decision: ApprovalDecision,
  configPath: string,
  desired?: DesiredState,
): Approval {
  if (decision.kind !== 'approved') {
    if (decision.kind === 'nothing-to-apply')
      throw new SvcError('INTERNAL', 'only a plan made now can have nothing to apply');
    return decision;
  }
  return {
    kind: 'approved',
    approved: decision,
    dashboardUrl: deps.client().url,
    configPath,
    ...(desired ? { desired } : {}),
  };
}
