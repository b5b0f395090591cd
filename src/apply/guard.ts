import type { DashboardClient } from '../dashboard/client.js';
import { SvcError } from '../errors.js';
import {
  brokenBySite,
  fingerprintIndexed,
  indexLiveState,
  verifyPlanId,
  withholding,
} from '../plan/index.js';
import type { Action, ItemRef, LiveState, Plan } from '../types.js';

/**
 * The approval checks a saved plan must pass before any of its actions run. Each throws an
 * SvcError with the interface's confirmation vocabulary; none sends a write. Order matters:
 * cheap local checks first, the live re-read (of the touched sites only) last.
 */

/**
 * Refusals carry a code, the engine's statement of what happened, and `details.reason` with the
 * data a front end needs to word its own hint (its flags, its variables, its tools): the CLI's
 * words are in cli/hints.ts, the tool server's in mcp/gitops/words.ts.
 */
export function checkIntegrity(plan: Plan): void {
  if (!verifyPlanId(plan)) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      'the plan file does not match its id: it was changed after planning',
      { details: { reason: 'plan-edited' } },
    );
  }
}

/** Past its expiry time, or with one that is no time at all. */
export function isExpired(plan: Plan, now: Date): boolean {
  const expires = Date.parse(plan.expires_at);
  return !Number.isFinite(expires) || now.getTime() > expires;
}

export function checkNotExpired(plan: Plan, now: Date): void {
  if (isExpired(plan, now)) {
    throw new SvcError('PREVIEW_EXPIRED', `the plan expired at ${plan.expires_at}`, {
      details: { reason: 'plan-expired', expires_at: plan.expires_at },
    });
  }
}

export function checkSameDashboard(plan: Plan, dashboardUrl: string): void {
  if (normaliseUrl(plan.dashboard.url) !== normaliseUrl(dashboardUrl)) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      `the plan was made for ${plan.dashboard.url}, not for the configured dashboard ${dashboardUrl}`,
      { details: { reason: 'other-dashboard', planned_for: plan.dashboard.url, dashboard: dashboardUrl } },
    );
  }
}

export function checkSameDesiredState(plan: Plan, desiredDigest: string): void {
  if (plan.desired_digest !== desiredDigest) {
    throw new SvcError(
      'PREVIEW_REQUIRED',
      'the desired-state files differ from the ones the reviewed plan was made from',
      { details: { reason: 'other-desired-state', reviewed: plan.desired_digest, merged: desiredDigest } },
    );
  }
}

/** While safe mode is on (the default), high-risk actions (core, major versions) are refused. */
export function checkSafeMode(actions: readonly Action[], safeMode: boolean): void {
  if (!safeMode) return;
  const risky = actions.filter((action) => action.risk === 'high');
  if (risky.length === 0) return;
  const listed = risky
    .slice(0, 10)
    .map((a) => `${a.site_url} ${a.kind} ${a.slug} ${a.from ?? ''}→${a.to ?? ''}`.trim())
    .join('; ');
  const more = risky.length > 10 ? ` and ${risky.length - 10} more` : '';
  throw new SvcError(
    'SAFE_MODE_BLOCKED',
    `safe mode is on and the plan holds ${risky.length} high-risk action(s): ${listed}${more}`,
    { details: { reason: 'safe-mode', high_risk: risky.length } },
  );
}

/**
 * Re-reads only the touched sites and compares each site's fingerprint with the plan's. Any
 * difference (or a site that can no longer be read) refuses the whole plan, nothing sent.
 * Returns the fresh live state of those sites.
 */
export async function checkLiveUnchanged(
  plan: Plan,
  client: Pick<DashboardClient, 'readLive'>,
): Promise<LiveState> {
  const itemsBySite = new Map<number, ItemRef[]>();
  for (const action of plan.actions) {
    const items = itemsBySite.get(action.site_id) ?? [];
    items.push({ kind: action.kind, slug: action.slug });
    itemsBySite.set(action.site_id, items);
  }
  const siteIds = [...itemsBySite.keys()].sort((a, b) => a - b);
  const live = await client.readLive({ siteIds });
  const index = indexLiveState(live);
  // A broken ignore entry (LiveState.broken) makes its items' ignore state unknown: no write of them.
  const broken = brokenBySite(live);
  const changed: number[] = [];
  for (const siteId of siteIds) {
    const expected = plan.fingerprints[String(siteId)];
    if (
      index.unreadable.has(siteId) ||
      itemsBySite.get(siteId)!.some((item) => withholding(broken.get(siteId), item)) ||
      expected === undefined ||
      fingerprintIndexed(index, siteId, itemsBySite.get(siteId)!) !== expected
    ) {
      changed.push(siteId);
    }
  }
  if (changed.length > 0) {
    const urls = changed
      .slice(0, 10)
      .map((id) => plan.actions.find((a) => a.site_id === id)?.site_url ?? `site ${id}`);
    throw new SvcError(
      'PREVIEW_REQUIRED',
      `the live state changed since the plan was made on ${changed.length} site(s): ${urls.join(', ')}${changed.length > 10 ? ', …' : ''}; nothing was applied`,
      { details: { reason: 'live-changed', changed_sites: changed } },
    );
  }
  return live;
}

function normaliseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '').toLowerCase();
}
