/**
 * The fewest run-updates calls for a small fleet, by exhaustive search; written apart from
 * src/apply/update-grouping.ts so the benchmark can judge it.
 *
 * The problem: each site has wanted items W(s) and blocked items B(s) (pending, not wanted). A
 * call is a product T × L of kinds and slugs plus the sites it runs on; on a site it runs
 * W(s) ∩ (T × L), and it may hold a site only when B(s) ∩ (T × L) is empty. Every wanted item of
 * every site must run exactly once. With at most `maxSites` ≥ the number of sites, one product
 * serves all the sites that use it, so the fewest calls = the fewest products such that every
 * site's W(s) is split exactly by the products safe for it.
 *
 * Search: iterative deepening on the number of products. A node is a set of products; the site
 * that cannot be split by them and has the fewest usable new products is chosen, and each such
 * product (safe for it, running something of W(s)) is tried: any solution containing the node's
 * products holds one of them. Products with the same effect on every site count once. Returns
 * undefined when `nodeBudget` nodes were not enough to prove the minimum.
 */

export interface SmallSite {
  wanted: ReadonlyArray<{ kind: string; slug: string }>;
  blocked: ReadonlyArray<{ kind: string; slug: string }>;
}

export function exactMinimumCalls(sites: readonly SmallSite[], nodeBudget = 2_000_000): number | undefined {
  const active = sites.filter((s) => s.wanted.length > 0);
  if (active.length === 0) return 0;
  const kinds = [...new Set(active.flatMap((s) => s.wanted.map((w) => w.kind)))];
  const slugs = [...new Set(active.flatMap((s) => s.wanted.map((w) => w.slug)))];
  if (slugs.length > 16) throw new Error(`too many slugs for the exhaustive search (${slugs.length})`);
  // Per site: its wanted items as bits 0..n-1, and for each product the bits it runs (or -1: unsafe).
  const effects = new Map<string, { product: number; effect: number[] }>();
  for (let t = 1; t < 1 << kinds.length; t++) {
    for (let l = 1; l < 1 << slugs.length; l++) {
      const inProduct = (kind: string, slug: string) =>
        (t & (1 << kinds.indexOf(kind))) !== 0 && (l & (1 << slugs.indexOf(slug))) !== 0;
      const effect = active.map((site) => {
        if (
          site.blocked.some(
            (b) => kinds.includes(b.kind) && slugs.includes(b.slug) && inProduct(b.kind, b.slug),
          )
        )
          return -1;
        let bits = 0;
        site.wanted.forEach((w, i) => {
          if (inProduct(w.kind, w.slug)) bits |= 1 << i;
        });
        return bits === 0 ? -1 : bits;
      });
      if (effect.every((e) => e === -1)) continue;
      const key = effect.join(',');
      if (!effects.has(key)) effects.set(key, { product: t * 65536 + l, effect });
    }
  }
  const products = [...effects.values()].map((e) => e.effect);
  const full = active.map((site) => (1 << site.wanted.length) - 1);

  /** Whether site `s` can be split exactly by the chosen products' effects on it. */
  const splits = (s: number, chosen: readonly number[]): boolean => {
    const parts = [...new Set(chosen.map((p) => products[p]![s]!).filter((e) => e > 0))];
    const search = (covered: number, from: number): boolean => {
      if (covered === full[s]) return true;
      for (let i = from; i < parts.length; i++) {
        const part = parts[i]!;
        if ((part & covered) === 0 && search(covered | part, i + 1)) return true;
      }
      return false;
    };
    return search(0, 0);
  };

  let nodes = 0;
  const seen = new Set<string>();
  const dfs = (chosen: number[], limit: number): boolean | undefined => {
    if (++nodes > nodeBudget) return undefined;
    const memo = `${limit}|${[...chosen].sort((a, b) => a - b).join(',')}`;
    if (seen.has(memo)) return false;
    seen.add(memo);
    let pick: { site: number; options: number[] } | undefined;
    for (let s = 0; s < active.length; s++) {
      if (splits(s, chosen)) continue;
      if (chosen.length === limit) return false;
      const options: number[] = [];
      for (let p = 0; p < products.length; p++)
        if (products[p]![s]! > 0 && !chosen.includes(p)) options.push(p);
      if (!pick || options.length < pick.options.length) pick = { site: s, options };
    }
    if (!pick) return true;
    for (const p of pick.options) {
      const found = dfs([...chosen, p], limit);
      if (found !== false) return found;
    }
    return false;
  };
  for (let limit = 1; ; limit++) {
    seen.clear();
    const found = dfs([], limit);
    if (found === undefined) return undefined;
    if (found) return limit;
  }
}
