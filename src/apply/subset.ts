import type { Action, Plan } from '../types.js';
import type { HeldBack } from './held-back.js';
import { changeKey, reviewKey } from './keys.js';
import { type HeldBackActions, heldBackIn } from './wave-limits.js';

/**
 * Running a fresh plan only as far as an earlier approval covers it. Used by the merge flow
 * (`--reviewed`: the approval is the reviewed plan) and by `--resume` (the approval is the
 * interrupted run's action list). Actions outside the approval are blocked, never sent.
 */

export interface ApprovedSubset {
  /** The fresh plan's actions outside the approval, by `changeKey` (undefined: none). */
  heldBack: HeldBackActions | undefined;
  /** Approved actions the fresh plan no longer needs (done meanwhile, or the world moved). */
  notNeeded: Action[];
  /** Fresh actions nobody approved: they wait for the next review. */
  unapproved: Action[];
}

export function reviewedSubset(fresh: Plan, reviewed: Plan): ApprovedSubset {
  return subset(fresh.actions, reviewed.actions, reviewKey, {
    code: 'UNREVIEWED',
    message: 'not in the reviewed plan: it waits for the next review',
  });
}

/** For resume the identity includes the starting version: a newer update was never approved. */
export function resumeSubset(fresh: Plan, approved: readonly Action[]): ApprovedSubset {
  return subset(fresh.actions, approved, changeKey, {
    code: 'NOT_APPROVED',
    message: 'not part of the interrupted run being resumed: plan and approve it separately',
  });
}

/** Updates an earlier run already confirmed done are never sent again (the journal says so). */
export function skipCompleted(completed: ReadonlySet<string>): (action: Action) => HeldBack | undefined {
  return (action) =>
    action.op === 'update' && completed.has(changeKey(action))
      ? {
          status: 'skipped',
          code: 'ALREADY_DONE',
          message: 'an earlier run already completed this update (journal)',
        }
      : undefined;
}

function subset(
  fresh: readonly Action[],
  approved: readonly Action[],
  key: (action: Action) => string,
  refusal: { code: 'UNREVIEWED' | 'NOT_APPROVED'; message: string },
): ApprovedSubset {
  const approvedKeys = new Set(approved.map(key));
  const freshKeys = new Set(fresh.map(key));
  return {
    heldBack: heldBackIn(fresh, (action) =>
      approvedKeys.has(key(action)) ? undefined : { status: 'blocked', ...refusal },
    ),
    notNeeded: approved.filter((action) => !freshKeys.has(key(action))),
    unapproved: fresh.filter((action) => !approvedKeys.has(key(action))),
  };
}

/** The first hold-back that applies wins. */
export function combineHoldBacks(
  ...rules: Array<((action: Action) => HeldBack | undefined) | undefined>
): (action: Action) => HeldBack | undefined {
  return (action) => {
    for (const rule of rules) {
      const held = rule?.(action);
      if (held) return held;
    }
    return undefined;
  };
}
