import { isSvcError, SvcError } from '../errors.js';
import type { Action, DashboardCapabilities, DesiredState, LiveState, Plan } from '../types.js';
import type { FailureLimits, HealthLimits, HeldBackActions } from './wave-limits.js';

/**
 * What an approval path decides: the plan approved (with what to hold back of it), a coded
 * refusal, or, when a person is asked, that there was nothing to ask about or they said no.
 * Deciding never sends a write; refusals are returned, never thrown, so every front end can
 * say them its own way (`refusalError` gives the CLI's).
 */

/** A plan made now, with what it was made from. */
export interface Planned {
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
}

/** How a run was approved. */
export type ApprovalPath =
  | 'prompt'
  | 'auto-approve'
  | 'no-confirmation'
  | 'saved-plan'
  | 'reviewed'
  | 'resume';

/** The interface's confirmation vocabulary: the codes an approval path refuses with. */
export const REFUSAL_CODES = [
  'PREVIEW_REQUIRED',
  'PREVIEW_EXPIRED',
  'SAFE_MODE_BLOCKED',
  'CONFLICTING_PARAMETERS',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface Refused {
  kind: 'refused';
  code: RefusalCode;
  message: string;
  hint?: string;
  details?: Record<string, unknown>;
}

/**
 * An approval is data: plain values only (no functions), so a front end can keep it, serialise
 * it and hand it back; `runApproved` reads it through `failureLimit`, `unhealthyLimit` and
 * `heldBackOf` (wave-limits.ts).
 */
export interface Approved {
  kind: 'approved';
  approval: ApprovalPath;
  /** The plan to run; `heldBack` says which of its actions this approval does not cover. */
  plan: Plan;
  /** Failed updates each named wave may have before the rollout stops (`failureLimit`). */
  maxFailures: FailureLimits;
  /** Health checks after each update wave, when the desired state has `rollout.health`. */
  health?: HealthLimits;
  /** The plan's actions this approval does not cover, by `changeKey`: reported, never sent. */
  heldBack?: HeldBackActions;
  /** The reviewed-plan path: reviewed actions no longer needed, and new ones nobody reviewed. */
  reviewed?: { notNeeded: Action[]; unreviewed: Action[] };
  /**
   * A saved plan: `runApproved` re-checks the touched sites' live facts and marks the plan used,
   * under the apply lock, before the first call.
   */
  savedPlan?: true;
  /** Known when the path read live state; a saved plan learns it from the live re-check. */
  capabilities?: DashboardCapabilities;
  /** The pending updates read when planning now; saved plans learn them from the re-check. */
  pending?: LiveState['pending'];
  warnings: string[];
}

export type ApprovalDecision =
  | Approved
  | Refused
  /** The prompt path: the plan has no actions, so nobody was asked. */
  | { kind: 'nothing-to-apply' }
  /** The prompt path: the person answered something other than `yes`. */
  | { kind: 'cancelled' };

const REFUSALS: ReadonlySet<string> = new Set(REFUSAL_CODES);

/** The refusal as the SvcError a front end that throws (the CLI) reports. */
export function refusalError(refused: Refused): SvcError {
  return new SvcError(refused.code, refused.message, {
    ...(refused.hint === undefined ? {} : { hint: refused.hint }),
    ...(refused.details === undefined ? {} : { details: refused.details }),
  });
}

/**
 * Runs the checks of an approval path: a check that refuses (the guard's checks throw the
 * confirmation vocabulary) becomes a `Refused`; any other error (a dashboard that cannot be
 * read, a file that cannot be) stays thrown.
 */
export async function deciding(
  work: () => Promise<ApprovalDecision> | ApprovalDecision,
): Promise<ApprovalDecision> {
  try {
    return await work();
  } catch (error) {
    const refused = asRefusal(error);
    if (refused) return refused;
    throw error;
  }
}

/** The synchronous form, for paths that read nothing. */
export function decidingSync(work: () => ApprovalDecision): ApprovalDecision {
  try {
    return work();
  } catch (error) {
    const refused = asRefusal(error);
    if (refused) return refused;
    throw error;
  }
}

function asRefusal(error: unknown): Refused | undefined {
  if (!isSvcError(error) || !REFUSALS.has(error.code)) return undefined;
  return {
    kind: 'refused',
    code: error.code as RefusalCode,
    message: error.message,
    ...(error.hint === undefined ? {} : { hint: error.hint }),
    ...(Object.keys(error.details).length === 0 ? {} : { details: error.details }),
  };
}
