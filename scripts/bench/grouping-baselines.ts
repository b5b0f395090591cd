/**
 * Two simple groupings of update calls, written apart from src/apply/update-grouping.ts, for the
 * benchmark to compare it with. Both keep the same safety rule: on every site of a call, nothing
 * pending in the call's kinds × slugs is left alone by the plan there.
 */

export interface FleetSite {
  id: number;
  wanted: ReadonlyArray<{ kind: string; slug: string }>;
  /** Pending items the plan leaves alone on the site. */
  blocked: ReadonlyArray<{ kind: string; slug: string }>;
}

/** One call per item per `maxSites` sites that want it (always safe: it names one item). */
export function perItemCalls(sites: readonly FleetSite[], maxSites: number): number {
  const counts = new Map<string, number>();
  for (const site of sites)
    for (const w of new Set(site.wanted.map((i) => `${i.kind}|${i.slug}`)))
      counts.set(w, (counts.get(w) ?? 0) + 1);
  let calls = 0;
  for (const n of counts.values()) calls += Math.ceil(n / maxSites);
  return calls;
}

/**
 * First fit: sites in ID order; each joins the first open call whose kinds × slugs, widened by
 * the site's own, stays safe for every site in it and runs all of the site's wanted items; a site
 * that fits nowhere opens a call of its own (or, when its own items are unsafe together, one call
 * per kind).
 */
export function firstFitCalls(sites: readonly FleetSite[], maxSites: number): number {
  interface Open {
    kinds: Set<string>;
    slugs: Set<string>;
    members: FleetSite[];
  }
  const open: Open[] = [];
  let closed = 0;
  const safeFor = (site: FleetSite, kinds: Set<string>, slugs: Set<string>) =>
    !site.blocked.some((b) => kinds.has(b.kind) && slugs.has(b.slug));
  for (const site of sites) {
    if (site.wanted.length === 0) continue;
    const kinds = new Set(site.wanted.map((w) => w.kind));
    const slugs = new Set(site.wanted.map((w) => w.slug));
    if (!safeFor(site, kinds, slugs)) {
      // Its own items clash across kinds: one call per kind, not shared.
      closed += kinds.size;
      continue;
    }
    const fit = open.find((call) => {
      if (call.members.length >= maxSites) return false;
      const k = new Set([...call.kinds, ...kinds]);
      const s = new Set([...call.slugs, ...slugs]);
      return [...call.members, site].every((m) => safeFor(m, k, s));
    });
    if (fit) {
      for (const k of kinds) fit.kinds.add(k);
      for (const s of slugs) fit.slugs.add(s);
      fit.members.push(site);
    } else open.push({ kinds, slugs, members: [site] });
  }
  return closed + open.length;
}
