/**
 * One pass over a LiveState into per-site buckets, so planning and fingerprinting cost
 * O(sites + pending + ignores) instead of a scan of the whole fleet per site.
 *
 * Each site's facts are put in one canonical order, whatever order the dashboard listed them
 * in: pending updates by kind, slug, from, to, name; ignores by kind, slug, origin, versions.
 * Planning and fingerprinting then walk them in that order and never sort again: a site's
 * lowest move per item is the first of its run, and its fingerprint lists facts as they come.
 */
import type { LiveIgnore, LiveState, PendingUpdate, Site, UnreadableSite } from '../types.js';
import { compareKinds, compareText } from './order.js';

export interface LiveSiteFacts {
  site: Site;
  /** In canonical order (see above). */
  pending: PendingUpdate[];
  /** In canonical order (see above). */
  ignores: LiveIgnore[];
}

export interface LiveIndex {
  sites: Map<number, LiveSiteFacts>;
  unreadable: Map<number, UnreadableSite>;
}

function comparePending(a: PendingUpdate, b: PendingUpdate): number {
  return (
    compareKinds(a.kind, b.kind) ||
    compareText(a.slug, b.slug) ||
    compareText(a.from, b.from) ||
    compareText(a.to, b.to) ||
    compareText(a.name, b.name)
  );
}

/** An ignore's versions as one string: `a` for all, else `v` and each version length-prefixed, sorted. */
export function encodeVersions(versions: LiveIgnore['versions']): string {
  if (versions === 'all') return 'a';
  let text = 'v';
  for (const version of [...versions].sort(compareText)) text += `${version.length}:${version}`;
  return text;
}

function compareIgnores(a: LiveIgnore, b: LiveIgnore): number {
  return (
    compareKinds(a.kind, b.kind) ||
    compareText(a.slug, b.slug) ||
    compareText(a.origin, b.origin) ||
    (a.versions === b.versions ? 0 : compareText(encodeVersions(a.versions), encodeVersions(b.versions)))
  );
}

/** The client reads facts in (site, kind, slug) order already: checking costs less than sorting. */
function sortUnlessSorted<T>(list: T[], compare: (a: T, b: T) => number): void {
  for (let i = 1; i < list.length; i++) {
    if (compare(list[i - 1] as T, list[i] as T) > 0) {
      list.sort(compare);
      return;
    }
  }
}

export function indexLiveState(live: LiveState): LiveIndex {
  const sites = new Map<number, LiveSiteFacts>();
  for (const site of live.sites) sites.set(site.id, { site, pending: [], ignores: [] });
  // Facts about sites the listing did not return have no site to belong to and are dropped.
  for (const update of live.pending) sites.get(update.siteId)?.pending.push(update);
  for (const ignore of live.ignores) sites.get(ignore.siteId)?.ignores.push(ignore);
  for (const facts of sites.values()) {
    sortUnlessSorted(facts.pending, comparePending);
    sortUnlessSorted(facts.ignores, compareIgnores);
  }
  const unreadable = new Map<number, UnreadableSite>();
  for (const entry of live.unreadable) unreadable.set(entry.siteId, entry);
  return { sites, unreadable };
}
