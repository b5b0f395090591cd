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
  const siteIds = new Set<number>();
  const keys = listed.map((i) => {
    siteIds.add(i.siteId);
    return `${i.kind}\u0000${i.slug}\u0000${i.versions === 'all' ? '*' : i.versions.join(',')}`;
  });
  const sitesPerKey = new Map<string, Set<number>>();
  listed.forEach((ignore, index) => {
    const key = keys[index] as string;
    const sites = sitesPerKey.get(key) ?? new Set<number>();
    sites.add(ignore.siteId);
    sitesPerKey.set(key, sites);
  });
  const seen = new Set<string>();
  const out: LiveIgnore[] = [];
  listed.forEach((ignore, index) => {
    const unique = `${ignore.siteId}\u0000${ignore.kind}\u0000${ignore.slug}`;
    if (seen.has(unique)) return;
    seen.add(unique);
    const global = siteIds.size >= 2 && sitesPerKey.get(keys[index] as string)?.size === siteIds.size;
    out.push({
      siteId: ignore.siteId,
      kind: ignore.kind,
      slug: ignore.slug,
      versions: ignore.versions,
      origin: global ? 'global' : 'site',
    });
  });
  for (const [siteId, flags] of flagsBySite) {
    for (const kind of ['core', 'plugin', 'theme'] as const) {
      if (flags[kind]) out.push({ siteId, kind, slug: '*', versions: 'all', origin: 'site-flag' });
    }
  }
  return out;
}
