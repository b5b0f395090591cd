/**
 * One pass over a LiveState into per-site buckets, so planning and fingerprinting cost
 * O(sites + pending + ignores) instead of a scan of the whole fleet per site.
 */
import type { LiveIgnore, LiveState, PendingUpdate, Site, UnreadableSite } from '../types.js';

export interface LiveSiteFacts {
  site: Site;
  pending: PendingUpdate[];
  ignores: LiveIgnore[];
}

export interface LiveIndex {
  sites: Map<number, LiveSiteFacts>;
  unreadable: Map<number, UnreadableSite>;
}

export function indexLiveState(live: LiveState): LiveIndex {
  const sites = new Map<number, LiveSiteFacts>();
  for (const site of live.sites) sites.set(site.id, { site, pending: [], ignores: [] });
  // Facts about sites the listing did not return have no site to belong to and are dropped.
  for (const update of live.pending) sites.get(update.siteId)?.pending.push(update);
  for (const ignore of live.ignores) sites.get(ignore.siteId)?.ignores.push(ignore);
  const unreadable = new Map<number, UnreadableSite>();
  for (const entry of live.unreadable) unreadable.set(entry.siteId, entry);
  return { sites, unreadable };
}

/** Key of an item on a site, used to pair desired and live facts. */
export function itemKey(kind: string, slug: string): string {
  return `${kind}\u0000${slug}`;
}
