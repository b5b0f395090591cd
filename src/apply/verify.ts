import type { DashboardClient } from '../dashboard/client.js';
import { isSvcError } from '../errors.js';
import { indexLiveState, type LiveIndex } from '../plan/index.js';
import type { Action, ActionOutcome, LiveState } from '../types.js';

/**
 * Truth after the fact: re-reads the touched sites once and checks every action that was sent
 * against what the dashboard now holds.
 * - done but not in effect (an ignore not kept, an update still pending) → failed,
 *   `NOT_PERSISTED` / `NOT_APPLIED`;
 * - failed (e.g. a reset after the request went out) but in effect → done, with a note;
 * - an update skipped because an earlier run reported it done (ALREADY_DONE) but still pending
 *   → failed, `NOT_APPLIED`: the earlier report was not the truth;
 * - other skipped and blocked actions were never sent and are left alone.
 * When the re-read fails, nothing can be confirmed: done outcomes and ALREADY_DONE skips are
 * marked `unverified`, and the run does not count as a success. The same holds for the outcomes
 * on a site the re-read could not read (`unreadSites`), and for every outcome of a run that makes
 * no re-read at all (`unconfirmed`: interrupted, or the dashboard could not be reached).
 */

export interface VerifyReport {
  outcomes: ActionOutcome[];
  /** Set when the re-read itself failed; outcomes are then as the calls reported them. */
  error?: { code: string; message: string };
  /** Checked outcomes on sites the re-read could not read: those stay as reported. */
  unreadSites?: number;
}

/** Outcomes the re-read checks: what was sent, and what an earlier run reported done. */
export function needsCheck(outcome: ActionOutcome): boolean {
  return outcome.status === 'done' || outcome.status === 'failed' || skippedAsDone(outcome);
}

/**
 * `signal` ends a re-read that is waiting (for the rate limiter, a retry, the dashboard): it then
 * counts as failed, and nothing is confirmed.
 */
export async function verifyOutcomes(
  client: Pick<DashboardClient, 'readLive'>,
  outcomes: readonly ActionOutcome[],
  signal?: AbortSignal,
  onProgress?: (progress: { done: number; total: number | undefined }) => void,
): Promise<VerifyReport> {
  const sent = outcomes.filter(needsCheck);
  const siteIds = [...new Set(sent.map((o) => o.action.site_id))].sort((a, b) => a - b);
  if (siteIds.length === 0) return { outcomes: [...outcomes] };
  let live: LiveState;
  try {
    live = await client.readLive({
      siteIds,
      ...(signal ? { signal } : {}),
      ...(onProgress ? { onProgress } : {}),
    });
  } catch (error) {
    const code = isSvcError(error) ? error.code : 'INTERNAL';
    const message = error instanceof Error ? error.message : String(error);
    return { outcomes: unconfirmed(outcomes, `re-read failed: ${code}`), error: { code, message } };
  }
  const index = indexLiveState(live);
  const unread = siteIds.filter((id) => index.unreadable.has(id)).length;
  return {
    outcomes: outcomes.map((o) => checkOutcome(o, index)),
    ...(unread > 0 ? { unreadSites: unread } : {}),
  };
}

/**
 * The outcomes of a run that makes no re-read (or whose re-read failed): what the calls (or an
 * earlier run) reported done stays done, marked `unverified` with `why`; the rest is as reported.
 */
export function unconfirmed(outcomes: readonly ActionOutcome[], why: string): ActionOutcome[] {
  return outcomes.map((o) =>
    o.status === 'done' || skippedAsDone(o)
      ? {
          ...o,
          unverified: true as const,
          message: `reported done${o.status === 'done' ? '' : ' by an earlier run'}; not verified (${why})`,
        }
      : o,
  );
}

/**
 * The re-read's facts by site (a fleet's apply checks tens of thousands of outcomes against as
 * many facts), from the planner's one live index: the facts a plan was made from and the facts
 * its outcomes are checked against are indexed alike.
 */
type ReadBySite = LiveIndex;

/** An update held back because an earlier run reported it done: the re-read checks it too. */
function skippedAsDone(outcome: ActionOutcome): boolean {
  return outcome.status === 'skipped' && outcome.code === 'ALREADY_DONE';
}

function checkOutcome(outcome: ActionOutcome, live: ReadBySite): ActionOutcome {
  const { action } = outcome;
  if (skippedAsDone(outcome)) {
    if (live.unreadable.has(action.site_id)) {
      return {
        ...outcome,
        unverified: true,
        message: 'reported done by an earlier run; not verified (site unreadable)',
      };
    }
    if (isInEffect(outcome, live)) return outcome;
    return {
      action,
      status: 'failed',
      code: 'NOT_APPLIED',
      message: 'an earlier run reported this update done, but it is still pending',
    };
  }
  if (outcome.status !== 'done' && outcome.status !== 'failed') return outcome;
  if (live.unreadable.has(action.site_id)) {
    return outcome.status === 'done'
      ? { ...outcome, unverified: true, message: 'reported done; not verified (site unreadable)' }
      : outcome;
  }
  const inEffect = isInEffect(outcome, live);
  if (outcome.status === 'done' && !inEffect) {
    return action.op === 'update'
      ? {
          action,
          status: 'failed',
          code: 'NOT_APPLIED',
          message: 'reported done, but the update is still pending',
        }
      : {
          action,
          status: 'failed',
          code: 'NOT_PERSISTED',
          message: `reported done, but the dashboard did not keep the ${action.op}`,
        };
  }
  if (outcome.status === 'failed' && inEffect) {
    return {
      action,
      status: 'done',
      message: `took effect although the call reported ${outcome.code ?? 'a failure'}`,
    };
  }
  return outcome;
}

function isInEffect({ action }: ActionOutcome, live: ReadBySite): boolean {
  const facts = live.sites.get(action.site_id);
  if (action.op === 'update') {
    // Still at the version it started from: not updated, whatever version is pending now (a
    // newer release may have replaced the planned move meanwhile).
    return !(facts?.pending ?? []).some(
      (p) => p.kind === action.kind && p.slug === action.slug && p.from === (action.from ?? p.from),
    );
  }
  const listed = (facts?.ignores ?? []).filter((i) => i.kind === action.kind && i.slug === action.slug);
  // An ignore is in effect when the item is ignored on the site in all versions (the planner
  // plans one where live ignores only some): the reader cannot always tell a per-site ignore
  // present on every site from a global one, and either hides every update. An unignore is in
  // effect when no per-site ignore of the item is left.
  return action.op === 'ignore'
    ? listed.some((i) => i.versions === 'all')
    : !listed.some((i) => i.origin === 'site');
}

/** Whether `action` is already in effect in `live` (as the re-read after the calls judges it). */
export function inEffectIn(live: LiveState): (action: Action) => boolean {
  const read = indexLiveState(live);
  return (action) => isInEffect({ action, status: 'done' }, read);
}
