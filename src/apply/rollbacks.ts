import type { DashboardClient } from '../dashboard/client.js';
import { describeMove } from '../plan/index.js';
import type { ActionOutcome, UnhealthySite } from '../types.js';

/** The problem an unhealthy site shows when WordPress rolled back an update the wave ran there. */
export const ROLLED_BACK = 'rolled back by WordPress';

/**
 * The wave's sites where WordPress rolled back an update the wave attempted: `rollback_items` of
 * `get-site-updates-v1` names the item at the version the wave updated it to. Only the wave's
 * sites are read (the client bounds the concurrency). On a dashboard that can only say a rollback
 * is there (MainWP 6.1.2 under WordPress 6.9, see readRollbacks), the site's failed plugin and
 * theme updates are the rolled-back ones. Each such site is unhealthy with
 * `after` listing only the rolled-back updates, so only those versions are quarantined. A
 * dashboard without the ability, or a read that fails, adds nothing: the check-site verdict
 * stands alone.
 */
export async function rolledBackSites(
  client: Partial<Pick<DashboardClient, 'readRollbacks'>>,
  outcomes: readonly ActionOutcome[],
  signal: AbortSignal | undefined,
): Promise<UnhealthySite[]> {
  const attempted = outcomes.filter(
    ({ action, status }) => action.op === 'update' && action.to && status !== 'skipped',
  );
  const ids = [...new Set(attempted.map(({ action }) => action.site_id))].sort((a, b) => a - b);
  if (!client.readRollbacks || ids.length === 0) return [];
  let answers: Awaited<ReturnType<DashboardClient['readRollbacks']>>;
  try {
    answers = await client.readRollbacks(ids, signal ? { signal } : {});
  } catch {
    return [];
  }
  const found = new Map<number, UnhealthySite>();
  for (const { action, status } of attempted) {
    const answer = answers?.find((each) => each.siteId === action.site_id);
    // A rollback the dashboard could not name (readRollbacks) is one of the site's updates that
    // failed: each of those counts, so a known-bad version is never missed.
    const hit = answer?.unnamed
      ? status === 'failed' && action.kind !== 'core'
      : (answer?.items ?? []).some(
          (item) => item.kind === action.kind && item.slug === action.slug && item.version === action.to,
        );
    if (!hit) continue;
    const site = found.get(action.site_id) ?? {
      site_id: action.site_id,
      site_url: action.site_url,
      problem: ROLLED_BACK,
      after: [],
    };
    site.after!.push(describeMove(action));
    found.set(action.site_id, site);
  }
  return [...found.values()];
}
