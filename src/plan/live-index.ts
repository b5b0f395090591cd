/**
 * The one live indexer: a LiveState's facts site by site (factsBySite), so planning and
 * fingerprinting cost O(sites + pending + ignores) instead of a scan of the whole fleet per
 * site. createPlan walks it; apply's re-check and verification look sites up in the map built
 * from it (indexLiveState): plan-time and apply-time fingerprints come from one code path.
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

export function indexUnreadable(entries: readonly UnreadableSite[]): Map<number, UnreadableSite> {
  const unreadable = new Map<number, UnreadableSite>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as UnreadableSite;
    unreadable.set(entry.siteId, entry);
  }
  return unreadable;
}

/**
 * The facts of every site by id, for apply's re-check and verification: built from factsBySite,
 * the one indexer, so a fingerprint apply recomputes is made from facts in exactly the order
 * and with exactly the choices (a site listed twice is its later record, facts of unlisted
 * sites are dropped) of the plan's.
 */
export function indexLiveState(live: LiveState): LiveIndex {
  const sites = new Map<number, LiveSiteFacts>();
  for (const facts of factsBySite(live)) sites.set(facts.site.id, facts);
  return { sites, unreadable: indexUnreadable(live.unreadable) };
}

/** The list itself when it is in ascending site order (as a read assembles it), else a stably sorted copy. */
function inSiteOrder<T extends { siteId: number }>(list: readonly T[]): readonly T[] {
  for (let i = 1; i < list.length; i++) {
    if ((list[i - 1] as T).siteId > (list[i] as T).siteId)
      return list.slice().sort((a, b) => a.siteId - b.siteId);
  }
  return list;
}

/** The facts of `siteId` from `at` on in a list in site order (facts of unlisted sites skipped). */
function takeRun<T extends { siteId: number }>(list: readonly T[], at: { i: number }, siteId: number): T[] {
  while (at.i < list.length && (list[at.i] as T).siteId < siteId) at.i++;
  const start = at.i;
  while (at.i < list.length && (list[at.i] as T).siteId === siteId) at.i++;
  return start === at.i ? [] : list.slice(start, at.i);
}

/**
 * Each site's facts, one site at a time, sites ascending: each site's facts are made when it
 * is reached and can be dropped once it is planned, so a plan never holds the facts of a whole
 * fleet a second time beside the live state (a fleet's index is as large as a third of it). A
 * site listed twice is its later record; facts of sites the listing does not hold are dropped.
 */
export function* factsBySite(live: LiveState): Generator<LiveSiteFacts> {
  const sites = live.sites.slice().sort((a, b) => a.id - b.id);
  const pending = inSiteOrder(live.pending);
  const ignores = inSiteOrder(live.ignores);
  const atPending = { i: 0 };
  const atIgnores = { i: 0 };
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i] as Site;
    const next = sites[i + 1];
    if (next !== undefined && next.id === site.id) continue;
    const facts: LiveSiteFacts = {
      site,
      pending: takeRun(pending, atPending, site.id),
      ignores: takeRun(ignores, atIgnores, site.id),
    };
    sortUnlessSorted(facts.pending, comparePending);
    sortUnlessSorted(facts.ignores, compareIgnores);
    yield facts;
  }
}
