/**
 * Which pending updates are security updates, from the advisories the caller read from a feed
 * (the planner never reads one itself). An update is a security update when its installed
 * version (`from`) lies in an affected range of an advisory (each end inclusive or exclusive as
 * the advisory says; `*` is open) and its target (`to`) is at or above one of the advisory's
 * patched versions and itself outside every affected range. An advisory that affects `from`
 * but that `to` does not fix leaves the site vulnerable with no fix pending.
 *
 * Advisories name plugins by their folder; the dashboard names them `folder/file.php` (or
 * `file.php` for a single-file plugin, looked up as `file`). Each distinct (item, move) is
 * judged once per plan: a fleet repeats the same few moves on thousands of sites.
 */
import type { Advisory, ItemKind, PendingUpdate, VersionRange } from '../types.js';
import { canonicalSegments, compareSegmentLists, compareVersions } from './versions.js';

export interface SecurityVerdict {
  /** Advisories that affect `from` and that `to` fixes, in feed order. */
  fixed: readonly Advisory[];
  /** Advisories that affect `from` and that `to` does not fix. */
  unfixed: readonly Advisory[];
}

export interface SecurityIndex {
  /** Undefined when no advisory affects the update's installed version. */
  judge(update: Pick<PendingUpdate, 'kind' | 'slug' | 'from' | 'to'>): SecurityVerdict | undefined;
}

/** The feed's slug of a dashboard slug: a plugin's folder, or its file name without `.php`. */
export function feedSlug(kind: ItemKind, slug: string): string {
  if (kind !== 'plugin') return slug;
  const slash = slug.indexOf('/');
  if (slash > 0) return slug.slice(0, slash);
  return slug.endsWith('.php') ? slug.slice(0, -'.php'.length) : slug;
}

/**
 * Whether the feed's (kind, slug) names an item a plan of `live` can judge: one with a pending
 * update (listed, or hidden by a site-wide flag). A feed reader keeps only these advisories;
 * the plan's verdicts are the same as with the whole feed, since `judge` asks for no other.
 */
export function fleetFeedItems(live: {
  pending: readonly Pick<PendingUpdate, 'kind' | 'slug'>[];
  hidden?: readonly Pick<PendingUpdate, 'kind' | 'slug'>[] | undefined;
}): (kind: Advisory['kind'], slug: string) => boolean {
  const items = { core: new Set<string>(), plugin: new Set<string>(), theme: new Set<string>() };
  for (const list of [live.pending, live.hidden ?? []])
    for (const { kind, slug } of list) if (kind !== 'translation') items[kind].add(feedSlug(kind, slug));
  return (kind, slug) => items[kind].has(slug);
}

const OPEN = '*';

export function inRange(version: string, range: VersionRange, compare = compareVersions): boolean {
  if (range.from !== OPEN && range.from !== '') {
    const low = compare(version, range.from);
    if (low < 0 || (low === 0 && !range.fromInclusive)) return false;
  }
  if (range.to !== OPEN && range.to !== '') {
    const high = compare(version, range.to);
    if (high > 0 || (high === 0 && !range.toInclusive)) return false;
  }
  return true;
}

export function createSecurityIndex(advisories: readonly Advisory[]): SecurityIndex {
  const byItem = {
    core: new Map<string, Advisory[]>(),
    plugin: new Map<string, Advisory[]>(),
    theme: new Map<string, Advisory[]>(),
  };
  for (const advisory of advisories) {
    const bySlug = byItem[advisory.kind];
    const list = bySlug.get(advisory.slug);
    if (list) list.push(advisory);
    else bySlug.set(advisory.slug, [advisory]);
  }
  // Each distinct version is parsed once per plan, and each range's ends once: a comparison
  // then walks parsed segments (a fleet's moves are mostly distinct, so pairs rarely repeat).
  const parsed = new Map<string, string[]>();
  const segments = (version: string) => {
    let list = parsed.get(version);
    if (!list) {
      list = canonicalSegments(version);
      parsed.set(version, list);
    }
    return list;
  };
  const compare = (a: string, b: string) => compareSegmentLists(segments(a), segments(b));
  const bounds = new Map<VersionRange, { from?: string[]; to?: string[] }>();
  const boundsOf = (range: VersionRange) => {
    let ends = bounds.get(range);
    if (!ends) {
      ends = {};
      if (range.from !== OPEN && range.from !== '') ends.from = segments(range.from);
      if (range.to !== OPEN && range.to !== '') ends.to = segments(range.to);
      bounds.set(range, ends);
    }
    return ends;
  };
  const within = (version: string[], range: VersionRange) => {
    const ends = boundsOf(range);
    if (ends.from) {
      const low = compareSegmentLists(version, ends.from);
      if (low < 0 || (low === 0 && !range.fromInclusive)) return false;
    }
    if (ends.to) {
      const high = compareSegmentLists(version, ends.to);
      if (high > 0 || (high === 0 && !range.toInclusive)) return false;
    }
    return true;
  };
  const affects = (advisory: Advisory, version: string[]) =>
    advisory.affected.some((range) => within(version, range));
  const fixes = (advisory: Advisory, to: string) =>
    to !== '' &&
    !affects(advisory, segments(to)) &&
    advisory.patched.some((patched) => compare(to, patched) >= 0);
  /** What affects `from`, and a verdict per target once asked. */
  interface Affected {
    list: Advisory[];
    byTo: Map<string, SecurityVerdict>;
  }
  const affectedBy = (list: readonly Advisory[], from: string): Affected | null => {
    const version = segments(from);
    // Most versions are affected by nothing: decided without building a list.
    if (!list.some((advisory) => affects(advisory, version))) return null;
    return { list: list.filter((advisory) => affects(advisory, version)), byTo: new Map() };
  };
  const verdictFor = (affected: Affected, to: string): SecurityVerdict => {
    let verdict = affected.byTo.get(to);
    if (!verdict) {
      const fixed: Advisory[] = [];
      const unfixed: Advisory[] = [];
      for (const advisory of affected.list) (fixes(advisory, to) ? fixed : unfixed).push(advisory);
      verdict = { fixed, unfixed };
      affected.byTo.set(to, verdict);
    }
    return verdict;
  };
  // Per dashboard slug (plugins carry `/` or `.php`, themes neither, core is `wordpress`, so
  // kinds never share one): the item's advisories, found once, and what affects each version.
  const items = new Map<string, { list: Advisory[] | undefined; byFrom: Map<string, Affected | null> }>();
  return {
    judge(update) {
      if (update.kind === 'translation') return undefined;
      let item = items.get(update.slug);
      if (!item) {
        const list = byItem[update.kind].get(feedSlug(update.kind, update.slug));
        item = { list, byFrom: new Map() };
        items.set(update.slug, item);
      }
      const { list } = item;
      if (!list) return undefined;
      let affected = item.byFrom.get(update.from);
      if (affected === undefined) {
        affected = affectedBy(list, update.from);
        item.byFrom.set(update.from, affected);
      }
      return affected === null ? undefined : verdictFor(affected, update.to);
    },
  };
}

const labels = new WeakMap<readonly Advisory[], string>();

/** The labels of a verdict's advisories, joined; remembered per list (a fleet repeats them). */
export function advisoryLabels(advisories: readonly Advisory[]): string {
  let text = labels.get(advisories);
  if (text === undefined) {
    text = advisories.map(advisoryLabel).join(', ');
    labels.set(advisories, text);
  }
  return text;
}

/** `CVE-2024-1 (CVSS 9.8)`, or the title when the advisory has no CVE id. */
export function advisoryLabel(advisory: Advisory): string {
  const name = advisory.cve ?? advisory.title;
  return advisory.cvss === undefined ? name : `${name} (CVSS ${advisory.cvss})`;
}
