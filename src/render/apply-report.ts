import { compareCodeUnits } from '../errors.js';
import {
  type Action,
  type ActionOutcome,
  type ActionStatus,
  type ApplyRun,
  DASHBOARD_UNREACHABLE,
  type RolloutHalt,
} from '../types.js';
import { safeText } from './safe-text.js';

/**
 * What an apply report shows, shared by the text, markdown and json renderers. Pure data:
 * the engine assembles it (applyReport) from the ApplyResult and the approval.
 */
export interface ApplyReport {
  result: ApplyRun;
  dashboard: string;
  /** How the run was approved. */
  approval: 'prompt' | 'auto-approve' | 'no-confirmation' | 'saved-plan' | 'reviewed' | 'resume';
  /** The reviewed-subset flow: reviewed actions no longer needed, and new ones nobody reviewed. */
  reviewed?: { notNeeded: Action[]; unreviewed: Action[] };
  /** Set when the re-read after the calls failed: outcomes are then as the calls reported. */
  verificationError?: { code: string; message: string };
  /**
   * Set when no re-read was made (`code` INTERRUPTED or DASHBOARD_UNREACHABLE, `message` why):
   * outcomes are then as the calls reported, those reported done unverified.
   */
  verificationSkipped?: { code: string; message: string };
  /**
   * Set when apply stopped sending because the dashboard could not be reached (`message`: the
   * failure): the actions not started are skipped as DASHBOARD_UNREACHABLE, `apply --resume`
   * finishes them.
   */
  unreachable?: { message: string };
  /** Set when a gate the plan recorded (a window) was shut before a wave: the rest waits. */
  gateClosed?: { message: string };
  /** The plan applied was made while the rollout is halted: the report leads with it. */
  halt?: RolloutHalt;
  warnings: string[];
}

export type StatusCounts = Record<ActionStatus, number>;

/**
 * Outcomes of `status` the re-read could not confirm (it failed, or missed their site): actions
 * reported done, and updates skipped because an earlier run reported them done.
 */
export function countUnverified(outcomes: readonly ActionOutcome[], status: 'done' | 'skipped'): number {
  let count = 0;
  for (const outcome of outcomes) if (outcome.unverified && outcome.status === status) count += 1;
  return count;
}

/** `N done` or `N done (M not verified)`: a count with how many of it the re-read could not confirm. */
export function withUnverified(count: number, unverified: number, label = ''): string {
  const counted = label === '' ? String(count) : `${count} ${label}`;
  return unverified > 0 ? `${counted} (${unverified} not verified)` : counted;
}

export function countStatuses(outcomes: readonly ActionOutcome[]): StatusCounts {
  const counts: StatusCounts = { done: 0, failed: 0, skipped: 0, blocked: 0 };
  for (const outcome of outcomes) counts[outcome.status] += 1;
  return counts;
}

/** One line per action; every dashboard-provided string passes safeText. */
export function describeAction(action: Action): string {
  return safeText(`${describeChange(action)} on ${action.site_url}`);
}

/** What an action changes, without its site (`update plugin x 1.0 → 1.1`); not yet made safe. */
export function describeChange(action: Action): string {
  const item = action.kind === 'core' ? 'core' : `${action.kind} ${action.slug}`;
  const move = action.op === 'update' ? ` ${action.from ?? '?'} → ${action.to || '(latest)'}` : '';
  return `${action.op} ${item}${move}`;
}

export function outcomeMessage(outcome: ActionOutcome): string {
  return outcome.message === undefined ? '' : safeText(outcome.message);
}

/** Actions not started because the dashboard could not be reached. */
export function countNotStarted(outcomes: readonly ActionOutcome[]): number {
  let count = 0;
  for (const outcome of outcomes)
    if (outcome.status === 'skipped' && outcome.code === DASHBOARD_UNREACHABLE) count++;
  return count;
}

/** Why no re-read confirmed the outcomes, as one sentence. */
export function unconfirmedNote(skipped: { code: string; message: string }): string {
  const why =
    skipped.code === 'INTERRUPTED'
      ? 'the apply was interrupted before the re-read that confirms its changes'
      : `no re-read confirmed the changes (${safeText(skipped.message)})`;
  return `Not confirmed: ${why}; outcomes are as the dashboard reported them, unverified (the next run checks them).`;
}

/** Outcomes that did not end done, grouped by code, largest group first. */
export function groupByCode(
  outcomes: readonly ActionOutcome[],
  status: ActionStatus,
): Array<[string, ActionOutcome[]]> {
  const groups = new Map<string, ActionOutcome[]>();
  for (const outcome of outcomes) {
    if (outcome.status !== status) continue;
    const code = outcome.code ?? status.toUpperCase();
    const group = groups.get(code);
    if (group) group.push(outcome);
    else groups.set(code, [outcome]);
  }
  return [...groups].sort((a, b) => b[1].length - a[1].length || compareCodeUnits(a[0], b[0]));
}
