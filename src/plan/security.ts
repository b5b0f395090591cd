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
 * judged once per plan: a fleet repeats the same few moves on thousands of sites. Most pending
 * updates start from a version no advisory affects: that is decided on version keys
 * (version-key.ts), without parsing or remembering anything per version.
 */
import type { Advisory, ItemKind, PendingUpdate, VersionRange } from '../types.js';
import { versionKey } from './version-key.js';
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
 * update (listed, or hidden by a site-wide flag), or installed where `security.installed` read
 * the sites' items. A feed reader keeps only these advisories; the plan's verdicts are the same
 * as with the whole feed, since the plan asks about no other item.
 */
export function fleetFeedItems(live: {
  pending: readonly Pick<PendingUpdate, 'kind' | 'slug'>[];
  hidden?: readonly Pick<PendingUpdate, 'kind' | 'slug'>[] | undefined;
  installed?: readonly Pick<PendingUpdate, 'kind' | 'slug'>[] | undefined;
}): (kind: Advisory['kind'], slug: string) => boolean {
  const items = { core: new Set<string>(), plugin: new Set<string>(), theme: new Set<string>() };
  for (const list of [live.pending, live.hidden ?? [], live.installed ?? []])
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
  // Versions compare on their keys (version-key.ts: parsed without allocating); a version
  // without one is split into segments once per plan, and compared the long way.
  const parsed = new Map<string, string[]>();
  const segments = (version: string) => {
    let list = parsed.get(version);
    if (!list) {
      list = canonicalSegments(version);
      parsed.set(version, list);
    }
    return list;
  };
  const compare = (a: string, b: string) => {
    const x = versionKey(a);
    const y = versionKey(b);
    if (x >= 0 && y >= 0) return x < y ? -1 : x > y ? 1 : 0;
    return compareSegmentLists(segments(a), segments(b));
  };
  const affects = (advisory: Advisory, version: string) =>
    advisory.affected.some((range) => inRange(version, range, compare));
  const fixes = (advisory: Advisory, to: string) =>
    to !== '' && !affects(advisory, to) && advisory.patched.some((patched) => compare(to, patched) >= 0);
  const affectedBy = (item: Item, from: string): Affected | null => {
    // Most versions are affected by nothing: decided without building a list.
    if (!item.list.some((advisory) => affects(advisory, from))) return null;
    const list = item.list.filter((advisory) => affects(advisory, from));
    return { item, list: intern(item, list), byTo: new Map() };
  };
  const verdictFor = (affected: Affected, to: string): SecurityVerdict => {
    let verdict = affected.byTo.get(to);
    if (!verdict) {
      const fixed: Advisory[] = [];
      const unfixed: Advisory[] = [];
      for (const advisory of affected.list) (fixes(advisory, to) ? fixed : unfixed).push(advisory);
      verdict = { fixed: intern(affected.item, fixed), unfixed: intern(affected.item, unfixed) };
      affected.byTo.set(to, verdict);
    }
    return verdict;
  };
  // Per dashboard slug (plugins carry `/` or `.php`, themes neither, core is `wordpress`, so
  // kinds never share one): the item's advisories, found once, their ranges as version keys
  // (null when one end has no key), and what affects each affected version.
  const items = new Map<string, Item | null>();
  const itemOf = (update: Pick<PendingUpdate, 'kind' | 'slug'>): Item | null => {
    let item = items.get(update.slug);
    if (item === undefined) {
      const list = byItem[update.kind as Advisory['kind']].get(feedSlug(update.kind, update.slug));
      item = list ? { list, keyed: keyedRanges(list), byFrom: new Map(), lists: new Map() } : null;
      items.set(update.slug, item);
    }
    return item;
  };
  return {
    judge(update) {
      if (update.kind === 'translation') return undefined;
      const item = itemOf(update);
      if (!item) return undefined;
      if (item.keyed) {
        const key = versionKey(update.from);
        if (key >= 0 && !affectsKey(item.keyed, key)) return undefined;
      }
      let affected = item.byFrom.get(update.from);
      if (affected === undefined) {
        affected = affectedBy(item, update.from);
        item.byFrom.set(update.from, affected);
      }
      return affected === null ? undefined : verdictFor(affected, update.to);
    },
  };
}

/** What affects an installed version, and a verdict per target once asked. */
interface Affected {
  item: Item;
  list: Advisory[];
  byTo: Map<string, SecurityVerdict>;
}

interface Item {
  list: Advisory[];
  /** Every range of the item's advisories as version keys; null when one has no key. */
  keyed: KeyedRange[] | null;
  byFrom: Map<string, Affected | null>;
  /** Its verdicts' lists by content (see intern). */
  lists: Map<string, Advisory[]>;
}

/**
 * One list object per distinct set of an item's advisories: the verdicts of a fleet's many
 * moves share it, so what is derived from a list (labels, reasons, notes, the security
 * section's ids) is made once per set, not once per move.
 */
function intern(item: Item, list: Advisory[]): Advisory[] {
  const key = list.map((advisory) => item.list.indexOf(advisory)).join(',');
  const known = item.lists.get(key);
  if (known) return known;
  item.lists.set(key, list);
  return list;
}

/** A range on version keys; an open end is ±Infinity. */
interface KeyedRange {
  from: number;
  fromInclusive: boolean;
  to: number;
  toInclusive: boolean;
}

const isOpen = (end: string) => end === OPEN || end === '';

function keyedRanges(list: readonly Advisory[]): KeyedRange[] | null {
  const out: KeyedRange[] = [];
  for (const advisory of list)
    for (const range of advisory.affected) {
      const from = isOpen(range.from) ? Number.NEGATIVE_INFINITY : versionKey(range.from);
      const to = isOpen(range.to) ? Number.POSITIVE_INFINITY : versionKey(range.to);
      if (from === -1 || to === -1) return null;
      out.push({ from, fromInclusive: range.fromInclusive, to, toInclusive: range.toInclusive });
    }
  return out;
}

/** Whether any range holds the version key `key` (the union of the item's advisories). */
function affectsKey(ranges: readonly KeyedRange[], key: number): boolean {
  for (const range of ranges) {
    if (key < range.from || (key === range.from && !range.fromInclusive)) continue;
    if (key > range.to || (key === range.to && !range.toInclusive)) continue;
    return true;
  }
  return false;
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
