import type { Plan } from '../types.js';
import { type ApprovalDecision, decidingSync, type Planned } from './decision.js';
import { checkIntegrity, checkSafeMode, checkSameDashboard, checkSameDesiredState } from './guard.js';
import { reviewedSubset } from './subset.js';
import { healthOf, waveLimits } from './wave-limits.js';

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
    const subset = reviewedSubset(planned.plan, reviewed);
    checkSafeMode(
      planned.plan.actions.filter((action) => !subset.holdBack(action)),
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
      holdBack: subset.holdBack,
      reviewed: { notNeeded: subset.notNeeded, unreviewed: subset.unapproved },
      warnings: [],
    };
  });
}
