import { SvcError } from '../errors.js';
import { REMAINING_WAVE } from '../plan/index.js';
import type { DesiredState, Plan } from '../types.js';
import { type ApprovalDecision, decidingSync } from './decision.js';
import { checkIntegrity, checkNotExpired, checkSafeMode, checkSameDashboard } from './guard.js';
import { healthOf, planLimits, waveLimits } from './wave-limits.js';

export interface SavedApprovalOptions {
  /** The URL of the dashboard the plan would run against (`client.url`). */
  dashboardUrl: string;
  safeMode: boolean;
  now: Date;
  /**
   * The desired-state config at hand, if one was found. `named`: the person named it (`-c`), so
   * it must be the desired state the plan was made from, or the plan is refused. A config only
   * found (the default path) is never a reason to refuse. `desired` is undefined when it did not
   * load.
   */
  config?: { path: string; desired: DesiredState | undefined; named?: boolean } | undefined;
}

/**
 * A saved plan (`apply plan.json`): unedited (its id), not expired, made for this dashboard and
 * within safe mode. Single use and the live facts of its touched sites are checked later, under
 * the apply lock (`runApproved`), so no other apply can race between check and calls. A saved
 * plan applies without its config at hand (CI may hold only the plan file): named waves then
 * stop at their first failed update, and a warning says so.
 */
export function approveSaved(plan: Plan, options: SavedApprovalOptions): ApprovalDecision {
  return decidingSync(() => {
    checkIntegrity(plan);
    checkNotExpired(plan, options.now);
    checkSameDashboard(plan, options.dashboardUrl);
    checkSafeMode(plan.actions, options.safeMode);
    const matching = options.config?.desired?.digest === plan.desired_digest;
    if (options.config?.named && !matching)
      throw otherDesiredState(options.config.path, options.config.desired);
    // The plan's own thresholds first: a plan file alone applies exactly as planned.
    const carried = planLimits(plan);
    if (carried) {
      return {
        kind: 'approved',
        approval: 'saved-plan',
        plan,
        maxFailures: carried,
        ...healthOf(matching ? options.config?.desired : undefined),
        savedPlan: true,
        warnings: [],
      };
    }
    const why =
      options.config === undefined
        ? 'no desired-state config was found'
        : `${options.config.path} is not the config the plan was made from`;
    const warning = matching ? undefined : waveWarning(plan, why);
    return {
      kind: 'approved',
      approval: 'saved-plan',
      plan,
      maxFailures: waveLimits(matching ? options.config?.desired : undefined),
      ...healthOf(matching ? options.config?.desired : undefined),
      savedPlan: true,
      warnings: warning === undefined ? [] : [warning],
    };
  });
}

function waveWarning(plan: Plan, why: string): string | undefined {
  const named = plan.actions.some((action) => action.wave !== undefined && action.wave !== REMAINING_WAVE);
  return named ? `${why}: every wave stops at its first failed update` : undefined;
}

/** A named config (the CLI's `-c`) that is not the desired state the plan was made from. */
function otherDesiredState(path: string, desired: DesiredState | undefined): SvcError {
  const what =
    desired === undefined
      ? `${path} has errors, so it cannot be checked to be the desired state the plan was made from`
      : `the plan was made from another desired state than ${path}`;
  return new SvcError('CONFLICTING_PARAMETERS', what, {
    details: { reason: 'other-config-named', path },
  });
}
