import type { LiveIgnore } from '../../types.js';
import type { SiteFlags, WireIgnore } from '../wire/reads.js';
import { shifted } from './assemble.js';

/**
 * Decides where each ignore listed by `list-ignored-updates-v1` is stored. That listing merges
 * the user's global lists into every site and has no field that says which list an entry is on
 * (spec §2 "Ignored entry"; dashboard-facts §3.5, §5), and the one listing that does name the
 * global lists, REST `GET /updates/ignored`, answers 500 on every dashboard that has the
 * abilities API (facts §6.2), so it serves only the REST surface (rest-live.ts). Here the
 * verdict rests on evidence, strongest first:
 *
 * 1. `name` equal to the slug marks a plugin/theme ignored through an ability (facts §3.5, §5:
 *    the abilities store Name = slug), and abilities write only per-site lists: `site`. This is
 *    how every ignore svc-gitops itself sets looks, so those stay removable on any number of sites.
 * 2. An entry (same name and versions) listed on every site the dashboard lists (`siteIds`, at
 *    least two), is `global`: a global ignore is repeated on every site, and a site without
 *    ignores of its own still lists it; a second entry for the item on one site is `site`
 *    when it differs (an ability's name = slug, other versions); a per-site copy set in the UI
 *    with the real name and the same versions cannot be told apart and is taken as global.
 * 3. Everything else is `site`.
 *
 * What remains ambiguous: an item ignored per site through the dashboard UI (with its real name)
 * on every site looks global; svc-gitops then reports it instead of unignoring it (the safe
 * side). A theme whose display name equals its folder name looks ability-set even on the global
 * list: with `unmanaged: remove` its unignore is planned and apply's re-read reports it as not
 * persisted. The whole listing is always read, so the verdict never depends on the sites asked for.
 * Site-wide "ignore this kind" flags are not in the listing; they come from site records
 * (`flags`), as slug `*`.
 */
export function classifyIgnores(
  listed: WireIgnore[],
  flagsBySite: ReadonlyMap<number, SiteFlags>,
  /** Every site of the dashboard's site listing. */
  siteIds: ReadonlySet<number>,
): LiveIgnore[] {
  // Each site's entries together (a fleet's listing already is): sites are counted, not collected.
  const bySite = inSiteOrder(listed);
  // Per (name, versions) signature of an item, how many listed sites list it.
  const sitesPerSignature = new Map<string, { lastSite: number; sites: number }>();
  for (const ignore of bySite) {
    if (setThroughAbility(ignore) || !siteIds.has(ignore.siteId)) continue;
    const key = signature(ignore);
    let count = sitesPerSignature.get(key);
    if (count === undefined) {
      count = { lastSite: ignore.siteId, sites: 0 };
      sitesPerSignature.set(key, count);
    } else if (count.lastSite === ignore.siteId) continue;
    count.lastSite = ignore.siteId;
    count.sites++;
  }
  const onEverySite = (ignore: WireIgnore): boolean =>
    siteIds.size >= 2 && sitesPerSignature.get(signature(ignore))?.sites === siteIds.size;

  // In site order: the assembler sorts by (site, kind, slug) and keeps each site's own order,
  // so the live state is the same whatever order the sites were listed in.
  const out: LiveIgnore[] = [];
  // One entry per (site, item, origin): a repeat of the same entry adds nothing.
  const repeats = siteRepeats<LiveIgnore>(
    (a, b) => a.slug === b.slug && a.kind === b.kind && a.origin === b.origin,
    (a) => `${a.kind}\u0000${a.slug}\u0000${a.origin}`,
  );
  for (const ignore of bySite) {
    const origin = !setThroughAbility(ignore) && onEverySite(ignore) ? 'global' : 'site';
    const entry: LiveIgnore = {
      siteId: ignore.siteId,
      kind: ignore.kind,
      slug: ignore.slug,
      versions: ignore.versions,
      origin,
    };
    if (!repeats(out, out.length, entry)) out.push(entry);
  }
  for (const [siteId, flags] of flagsBySite) {
    for (const kind of ['core', 'plugin', 'theme'] as const) {
      if (flags[kind]) out.push({ siteId, kind, slug: '*', versions: 'all', origin: 'site-flag' });
    }
  }
  return out;
}

/**
 * The listing itself when its entries are in ascending site order (as a fleet's read lists
 * them), else a copy sorted stably by site: each site's entries keep their listed order.
 */
function inSiteOrder<T extends { siteId: number }>(listed: readonly T[]): readonly T[] {
  for (let i = 1; i < listed.length; i++) {
    if ((listed[i - 1] as T).siteId > (listed[i] as T).siteId)
      return listed.slice().sort((a, b) => a.siteId - b.siteId);
  }
  return listed;
}

/** Entries of one site compared by a scan; a site listing more (no real site does) is keyed. */
const SCAN_LIMIT = 64;

/**
 * `repeats(list, end, entry)`: whether `list[..end)`, which lists each site's entries together
 * and is walked in order, holds an entry `same` as `entry` for its site. A scan of the site's
 * few entries, or past SCAN_LIMIT a set of their keys (kept for the rest of the site's run), so
 * no key is made for each of the hundreds of thousands of entries a fleet lists once, and a
 * hostile listing costs no more than keying everything would.
 */
function siteRepeats<T extends { siteId: number }>(
  same: (a: T, b: T) => boolean,
  key: (a: T) => string,
): (list: readonly T[], end: number, entry: T) => boolean {
  let start = 0;
  let keys: Set<string> | undefined;
  return (list, end, entry) => {
    const previous = list[end - 1];
    if (previous === undefined || previous.siteId !== entry.siteId) {
      start = end;
      keys = undefined;
      return false;
    }
    if (keys === undefined && end - start <= SCAN_LIMIT) {
      for (let i = start; i < end; i++) if (same(list[i] as T, entry)) return true;
      return false;
    }
    keys ??= new Set(list.slice(start, end).map(key));
    const entryKey = key(entry);
    if (keys.has(entryKey)) return true;
    keys.add(entryKey);
    return false;
  };
}

/**
 * Refuses a listing that holds an item of a site more often than a consistent one can: the trace
 * of a listing that moved while it was paged, where an entry read twice means another was missed
 * (the same check as for pending updates, in assemble.ts). A consistent listing holds, per site
 * and item, the site's own entry and the global one at most (each list is a map by slug), and
 * the global one is listed on every site. So a third entry, or a second where neither of the two
 * can be the global one, fails the read. The global lists are written only by the dashboard UI,
 * which stores a plugin's display name, never its `folder/file.php` slug; a theme's display name
 * can equal its folder, and core's is fixed, so for those only "on every site" counts. Legitimate
 * pairs, a site's own copy of a global ignore included, always pass (a read that failed on them
 * would fail on every run). What stays unseen: a repeat of an entry that could be global, on a
 * site without its own entry (it looks like that site's own copy); totals and page sizes are
 * checked as for every listing.
 */
export function refuseRepeatedIgnores(
  listed: readonly WireIgnore[],
  /** Every site of the dashboard's site listing: a global entry is listed on each of them. */
  siteIds: ReadonlySet<number>,
): void {
  // Most listings repeat no item: only then are signatures counted.
  const repeated = repeatedItems(listed);
  if (repeated.size === 0) return;
  const sitesPerSignature = new Map<string, Set<number>>();
  for (const ignore of listed) {
    const key = signature(ignore);
    const sites = sitesPerSignature.get(key) ?? new Set<number>();
    sites.add(ignore.siteId);
    sitesPerSignature.set(key, sites);
    repeated.get(itemKey(ignore))?.push(ignore);
  }
  // On every site the dashboard lists, not just on every site that has ignores: a site without
  // ignores of its own lists the global ones too (as classifyIgnores decides).
  const onEverySite = (ignore: WireIgnore) => {
    const sites = sitesPerSignature.get(signature(ignore));
    return sites !== undefined && [...siteIds].every((id) => sites.has(id));
  };
  const couldBeGlobal = (ignore: WireIgnore) =>
    !(ignore.kind === 'plugin' && setThroughAbility(ignore)) && onEverySite(ignore);
  for (const entries of repeated.values()) {
    if (entries.length === 2 && entries.some(couldBeGlobal)) continue;
    const { siteId, kind, slug } = entries[0] as WireIgnore;
    const times = entries.length === 2 ? 'twice' : `${entries.length} times`;
    throw shifted(`ignore ${kind} ${slug} of site ${siteId} was listed ${times}`);
  }
}

/**
 * The items (itemKey) listed more than once for a site, each with no entries yet, found within
 * each site's run of the listing in site order (siteRepeats).
 */
function repeatedItems(listed: readonly WireIgnore[]): Map<string, WireIgnore[]> {
  const repeated = new Map<string, WireIgnore[]>();
  const bySite = inSiteOrder(listed);
  const repeats = siteRepeats<WireIgnore>(
    (a, b) => a.slug === b.slug && a.kind === b.kind,
    (a) => `${a.kind}\u0000${a.slug}`,
  );
  for (let i = 0; i < bySite.length; i++) {
    const ignore = bySite[i] as WireIgnore;
    if (repeats(bySite, i, ignore)) repeated.set(itemKey(ignore), []);
  }
  return repeated;
}

/**
 * True when the ignores listed for some sites cannot be classified without the listing of every
 * site: an entry that could be on a global list (anything not set through an ability), or an
 * item listed twice for a site. Entries set through abilities are per-site whatever other sites
 * list (rule 1 of classifyIgnores), so a read of the targeted sites alone gives the same verdicts.
 */
export function needsWholeListing(listed: readonly WireIgnore[]): boolean {
  const seen = new Set<string>();
  for (const ignore of listed) {
    if (!setThroughAbility(ignore)) return true;
    const item = itemKey(ignore);
    if (seen.has(item)) return true;
    seen.add(item);
  }
  return false;
}

function itemKey(ignore: WireIgnore): string {
  return `${ignore.siteId}\u0000${ignore.kind}\u0000${ignore.slug}`;
}

/** The abilities store a plugin/theme ignore with Name = slug; the dashboard UI stores the real name. */
function setThroughAbility(ignore: WireIgnore): boolean {
  return ignore.kind !== 'core' && ignore.name !== undefined && ignore.name === ignore.slug;
}

function signature(ignore: WireIgnore): string {
  const versions = ignore.versions === 'all' ? '*' : ignore.versions.join(',');
  return [ignore.kind, ignore.slug, versions, ignore.name ?? ''].join('\u0000');
}
