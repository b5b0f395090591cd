import { SvcError } from '../errors.js';
import { closedGate } from '../plan/index.js';
import type { Plan } from '../types.js';
import { type ApprovalDecision, decidingSync, type Planned } from './decision.js';
import { checkIntegrity, checkSafeMode, checkSameDashboard, checkSameDesiredState } from './guard.js';
import { reviewedSubset } from './subset.js';
import { healthOf, heldBackOf, waveLimits } from './wave-limits.js';

export interface ReviewedApprovalOptions {
  /** The URL of the dashboard the plan would run against (`client.url`). */
  dashboardUrl: string;
  safeMode: boolean;
}

/**
 * The merge flow (`apply --reviewed plan.json`): the reviewed plan must be unedited, made for
 * this dashboard and from the same desired-state files as the plan made now. Only actions both
 * plans hold run; reviewed actions no longer needed and new ones nobody reviewed are listed.
 */
export function approveReviewed(
  reviewed: Plan,
  planned: Planned,
  options: ReviewedApprovalOptions,
): ApprovalDecision {
  return decidingSync(() => {
    checkIntegrity(reviewed);
    checkSameDashboard(reviewed, options.dashboardUrl);
    checkSameDesiredState(reviewed, planned.desired.digest);
    refuseShutReviewedGate(reviewed, new Date(planned.plan.created_at));
    const subset = reviewedSubset(planned.plan, reviewed);
    const held = heldBackOf(subset.heldBack);
    checkSafeMode(
      planned.plan.actions.filter((action) => !held(action)),
      options.safeMode,
    );
    return {
      kind: 'approved',
      approval: 'reviewed',
      plan: planned.plan,
      maxFailures: waveLimits(planned.desired),
      ...healthOf(planned.desired),
      capabilities: planned.live.capabilities,
      pending: planned.live.pending,
      ...(subset.heldBack ? { heldBack: subset.heldBack } : {}),
      reviewed: { notNeeded: subset.notNeeded, unreviewed: subset.unapproved },
      warnings: [],
    };
  });
}

/**
 * The reviewed plan's gates, judged at the merge-time apply as a saved plan's are: when the
 * first wave it updates is shut now (a window that closed since the review), the apply is
 * refused with nothing sent, as `apply PLANFILE` refuses it, instead of ending green with the
 * reviewed updates quietly left waiting.
 */
function refuseShutReviewedGate(reviewed: Plan, now: Date): void {
  const first = reviewed.actions.find((action) => action.op === 'update');
  if (!first) return;
  const shut = closedGate(reviewed.gates, first.wave, now);
  if (!shut) return;
  throw new SvcError('GATE_CLOSED', `not applied: ${shut.message}; nothing was sent`, {
    details: { ...shut },
    hint: 'the reviewed updates run once the gate opens: apply again then (the scheduled rollout does)',
  });
}
