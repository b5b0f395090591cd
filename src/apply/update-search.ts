/**
 * The fewest run-updates calls for a small wave, by bounded search. Pure.
 *
 * Applies when every site fits one call (sites ≤ the queueing threshold), the wave's grid of
 * kinds × slugs fits 32 cells and there are at most 40 site classes: then a call is just a product T × L, every site that uses a product
 * shares its call, and the fewest calls is the fewest products such that each site class's wanted
 * cells W are split exactly (no cell twice) by the traces P ∩ W of products P that hold nothing
 * blocked on it (P ∩ B = ∅). Sites with the same W and B form a class.
 *
 * Search: depth-first, the number of products bounded by `limit`. A node picks the uncovered class
 * cell with the fewest products able to cover it and branches on them: products already chosen
 * first, then new ones (while fewer than `limit` are chosen), largest reach first. Products with
 * the same traces on every class are one. States that failed are remembered. `limit` starts one
 * below the greedy's count and falls while a solution is found; the node budget bounds the time,
 * and the best solution found so far is kept (the greedy's when none is better).
 */

/** Beyond this many classes the set-up alone (products × classes) costs more than it saves. */
const MAX_CLASSES = 40;

export interface SearchClass {
  /** Wanted and blocked cells (bit c: the grid's cell c). */
  wanted: number;
  blocked: number;
}

export interface SearchGrid {
  kinds: number;
  slugs: number;
}

/** Per chosen product: its cells, and the classes that use it with the cells it runs there. */
export interface SearchSolution {
  products: Array<{ cells: number; uses: Array<{ cls: number; runs: number }> }>;
}

export function fewestProducts(
  classes: readonly SearchClass[],
  grid: SearchGrid,
  beat: number,
  nodeBudget: number,
): SearchSolution | undefined {
  const { kinds, slugs } = grid;
  if (kinds * slugs > 32 || classes.length === 0 || classes.length > MAX_CLASSES) return undefined;
  const m = classes.length;

  // Every product T × L, less those with the same traces as one already seen.
  const productCells: number[] = [];
  const traces: Int32Array[] = [];
  const seen = new Set<string>();
  for (let t = 1; t < 1 << kinds; t++) {
    for (let l = 1; l < 1 << slugs; l++) {
      let cells = 0;
      for (let k = 0; k < kinds; k++) if (t & (1 << k)) cells |= l << (k * slugs);
      cells >>>= 0;
      const trace = new Int32Array(m);
      let useful = false;
      for (let c = 0; c < m; c++) {
        const cls = classes[c]!;
        const runs = (cells & cls.wanted) >>> 0;
        trace[c] = (cells & cls.blocked) !== 0 || runs === 0 ? 0 : runs;
        if (trace[c] !== 0) useful = true;
      }
      if (!useful) continue;
      const key = trace.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      productCells.push(cells);
      traces.push(trace);
    }
  }
  const reach = traces.map((trace) => trace.reduce((n, runs) => n + popcount(runs), 0));
  // Per class and cell: the products able to run it there, largest reach first.
  const coverers: number[][][] = classes.map((cls, c) => {
    const byCell: number[][] = [];
    for (let cell = 0; cell < 32; cell++) {
      if (!(cls.wanted & (1 << cell))) continue;
      byCell[cell] = traces
        .map((_, p) => p)
        .filter((p) => (traces[p]![c]! & (1 << cell)) !== 0)
        .sort((a, b) => reach[b]! - reach[a]! || a - b);
    }
    return byCell;
  });

  let nodes = 0;
  let best: { chosen: number[]; use: number[][] } | undefined;
  for (let limit = beat - 1; limit >= 1; limit--) {
    const found = searchWithin(limit);
    if (found === 'budget' || found === undefined) break;
    best = found;
    limit = found.chosen.length;
  }
  if (!best) return undefined;
  const solution = best;
  return {
    products: solution.chosen.map((p) => ({
      cells: productCells[p]!,
      uses: solution.use
        .map((used, cls) => ({ cls, used }))
        .filter(({ used }) => used.includes(p))
        .map(({ cls }) => ({ cls, runs: traces[p]![cls]! })),
    })),
  };

  function searchWithin(limit: number): { chosen: number[]; use: number[][] } | 'budget' | undefined {
    const chosen: number[] = [];
    const isChosen = new Uint8Array(traces.length);
    const covered = new Array<number>(m).fill(0);
    const use: number[][] = classes.map(() => []);
    const failed = new Set<string>();

    const step = (): boolean | 'budget' => {
      if (++nodes > nodeBudget) return 'budget';
      // The class cell with the fewest products able to run it, counted without allocating.
      let pick: { cls: number; cell: number; count: number } | undefined;
      for (let c = 0; c < m; c++) {
        const done = covered[c]!;
        const open = (classes[c]!.wanted & ~done) >>> 0;
        if (open === 0) continue;
        const cell = 31 - Math.clz32(open & -open);
        const pool = chosen.length < limit ? coverers[c]![cell]! : chosen;
        let count = 0;
        for (const p of pool) {
          const runs = traces[p]![c]!;
          if ((runs & (1 << cell)) !== 0 && (runs & done) === 0) count++;
        }
        if (count === 0) return false;
        if (!pick || count < pick.count) pick = { cls: c, cell, count };
      }
      if (!pick) return true;
      const state = `${[...chosen].sort((a, b) => a - b).join(',')}|${covered.join(',')}`;
      if (failed.has(state)) return false;
      const c = pick.cls;
      const bit = 1 << pick.cell;
      const fits = (p: number) => (traces[p]![c]! & bit) !== 0 && (traces[p]![c]! & covered[c]!) === 0;
      // Products already chosen cost nothing more: try them first.
      const ordered = chosen.filter(fits);
      if (chosen.length < limit)
        for (const p of coverers[c]![pick.cell]!) if (!isChosen[p] && fits(p)) ordered.push(p);
      for (const p of ordered) {
        const added = !isChosen[p];
        if (added) {
          chosen.push(p);
          isChosen[p] = 1;
        }
        covered[c] = (covered[c]! | traces[p]![c]!) >>> 0;
        use[c]!.push(p);
        const found = step();
        if (found !== false) return found;
        use[c]!.pop();
        covered[c] = (covered[c]! & ~traces[p]![c]!) >>> 0;
        if (added) {
          chosen.pop();
          isChosen[p] = 0;
        }
      }
      failed.add(state);
      return false;
    };
    const found = step();
    if (found === 'budget') return 'budget';
    if (!found) return undefined;
    return { chosen: [...chosen], use: use.map((u) => [...u]) };
  }
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
