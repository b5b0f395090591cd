import type { LiveIgnore } from '../../types.js';
import type { SiteFlags, WireIgnore } from '../wire/reads.js';

/**
 * Decides where each listed ignore is stored. The ignored-updates listing merges the user's
 * global ignores into every site and carries no origin field, so the only evidence is shape: an
 * ignore (same kind, slug and versions) listed for every site of the listing, when the listing
 * covers at least two sites, is taken as global. What this cannot tell apart: the same item
 * ignored per site on every listed site looks global (svc-gitops then reports it instead of
 * unignoring it, the safe side). The whole listing is always read, so the verdict does not depend
 * on which sites a caller asked for. Site-wide "ignore this kind" flags are not in the listing;
 * they come from site records that show them (`flags`), as slug `*`.
 */
export function classifyIgnores(
  listed: WireIgnore[],
  flagsBySite: ReadonlyMap<number, SiteFlags>,
): LiveIgnore[] {
  // First drop repeated (site, kind, slug) entries, then count per (kind, slug, versions) how
  // many sites list it: with duplicates gone, that count is the number of distinct sites.
  const siteIds = new Set<number>();
  const seen = new Set<string>();
  const unique: WireIgnore[] = [];
  const keys: string[] = [];
  const sitesPerKey = new Map<string, number>();
  for (const ignore of listed) {
    const id = `${ignore.siteId}\u0000${ignore.kind}\u0000${ignore.slug}`;
    if (seen.has(id)) continue;
    seen.add(id);
    siteIds.add(ignore.siteId);
    const key = `${ignore.kind}\u0000${ignore.slug}\u0000${ignore.versions === 'all' ? '*' : ignore.versions.join(',')}`;
    sitesPerKey.set(key, (sitesPerKey.get(key) ?? 0) + 1);
    unique.push(ignore);
    keys.push(key);
  }
  const out: LiveIgnore[] = unique.map((ignore, index) => ({
    siteId: ignore.siteId,
    kind: ignore.kind,
    slug: ignore.slug,
    versions: ignore.versions,
    origin: siteIds.size >= 2 && sitesPerKey.get(keys[index] as string) === siteIds.size ? 'global' : 'site',
  }));
  for (const [siteId, flags] of flagsBySite) {
    for (const kind of ['core', 'plugin', 'theme'] as const) {
      if (flags[kind]) out.push({ siteId, kind, slug: '*', versions: 'all', origin: 'site-flag' });
    }
  }
  return out;
}
