import { type ApprovalDecision, approveSaved } from '../apply/index.js';
import { SvcError } from '../errors.js';
import type { ApplyReport } from '../render/index.js';
import type { Plan } from '../types.js';
import type { PlanDeps } from './session-plan.js';
import type { SessionPlan } from './session-types.js';

/**
 * A plan a front end holds in memory (the tool server keeps its session's last plans) is
 * approved as a saved plan is: unedited, not expired, made for this dashboard, within safe mode
 * (not judged for a dry run, which sends nothing); its single use and the live facts of its
 * touched sites are checked under the apply lock when it runs. Before that: a plan previewed at
 * another moment (`at`) is never applied, and a plan naming what the dashboard does not know,
 * under strict, is refused as the CLI refuses to save it.
 */
export function approveHeldPlan(
  deps: PlanDeps,
  planned: SessionPlan,
  dryRun: boolean,
): ApprovalDecision | { kind: 'nothing-to-apply'; report: ApplyReport } {
  const { plan, at } = planned;
  if (at) {
    // A refusal of the confirmation vocabulary: returned, as every approval path's refusals are.
    return {
      kind: 'refused',
      code: 'PREVIEW_REQUIRED',
      message: `plan ${plan.id.slice(0, 12)} previews the gates at ${at.toISOString()}: a preview is never applied`,
      details: { reason: 'previewed-at', at: at.toISOString() },
    };
  }
  const unknown = planned.refusals.find((refusal) => refusal.code === 'UNKNOWN_NAMES');
  if (unknown) {
    throw new SvcError('CONFIG_INVALID', unknown.message, { details: { reason: 'unknown-names' } });
  }
  if (plan.actions.length === 0 && !dryRun) return nothingToApply(deps, plan, 'saved-plan');
  return approveSaved(plan, {
    dashboardUrl: deps.client().url,
    safeMode: dryRun ? false : deps.settings().safeMode,
    now: deps.options.now(),
    config: { path: planned.configPath, desired: planned.desired },
  });
}

/**
 * A plan without actions: nothing runs, and this is its report, so a front end that reads
 * reports finds one (no action, no call, nothing to verify; a halted rollout still says so).
 */
export function nothingToApply(
  deps: PlanDeps,
  plan: Plan,
  approval: ApplyReport['approval'],
): { kind: 'nothing-to-apply'; report: ApplyReport } {
  const now = deps.options.now().toISOString();
  return {
    kind: 'nothing-to-apply',
    report: {
      result: {
        plan_id: plan.id,
        started_at: now,
        finished_at: now,
        outcomes: [],
        interrupted: false,
        calls: 0,
      },
      dashboard: deps.client().url,
      approval,
      ...(plan.rollout_halt ? { halt: plan.rollout_halt } : {}),
      warnings: [],
    },
  };
}
