import type { Action, ItemKind, ItemRef } from '../types.js';
import { GainHeap } from './gain-heap.js';
import { itemsOf, packSites } from './update-packing.js';
import { fewestProducts } from './update-search.js';

/**
 * Groups one wave's update actions into run-updates calls. Pure.
 *
 * What a call does: run-updates with `site_ids_or_domains` S, `types` T and `specific_items` L
 * runs, on every site of S, every pending item whose kind is in T and whose slug is in L (the
 * product T × L). So a call is safe for a site when nothing in T × L is pending there that the
 * plan does not update there ("blocked"), and it then runs every wanted item of the site in
 * T × L. Invariants of the result:
 * - every wanted (site, item) is run by exactly one call: no call's product holds an item of a
 *   site that another call of that site already runs (no double runs, even in parallel);
 * - no call's product holds an item blocked on one of its sites;
 * - at most `maxSites` sites per call (so the dashboard never queues it).
 * Which items are blocked: with the live pending list, the pending items the wave does not want
 * on the site, plus items this apply unignores on the site that it does not update there (they
 * become visible); without it, everything the wave does not want on the site.
 *
 * Two strategies run and the one with fewer calls is kept. Packing (update-packing.ts) puts whole
 * sites into calls. The set cover is greedy: each step takes the candidate product and the (at most
 * `maxSites`) sites that run the most wanted items with one call, until every wanted item is run.
 * Candidates: all the wave's kinds × all its slugs, that less each site class's blocked slugs,
 * each class's own items (all kinds, and kind by kind), and every single item (so it always
 * finishes). Sites with the same wanted and blocked items form a class and are counted together.
 */

export interface GroupedCall {
  siteIds: number[];
  /** The wanted items the call runs on at least one of its sites; its kinds and slugs are T and L. */
  items: ItemRef[];
  actions: number[];
}

export interface GroupingInput {
  actions: readonly Action[];
  /** Indices of this wave's update actions. */
  indices: readonly number[];
  maxSites: number;
  /** Items that may be pending on a site (from the live state), or undefined when unknown. */
  pendingOf?: ((siteId: number) => Iterable<ItemRef>) | undefined;
}

const KINDS: readonly ItemKind[] = ['core', 'plugin', 'theme', 'translation'];
/** The bounded search's budget: a few tens of milliseconds at most. */
const SEARCH_NODES = 20_000;

/** A fixed-size bit set over the grid of (kind, slug) pairs of one wave. */
type Bits = Uint32Array;

interface SiteClass {
  sites: number[];
  wanted: Bits;
  blocked: Bits;
  /** Wanted items not yet run by a chosen call. */
  left: Bits;
  /**
   * Items no further call of these sites may hold: the blocked ones, and those some chosen call
   * of these sites already has in its product (none may run twice).
   */
  avoid: Bits;
}

interface Candidate {
  seq?: number;
  kinds: number;
  slugs: Bits;
  grid: Bits;
  /** The last gain computed (an upper bound: gains only fall as calls are chosen). */
  gain: number;
}

export function groupUpdates(input: GroupingInput): GroupedCall[] {
  const { actions, indices } = input;
  const maxSites = Math.max(1, Math.floor(input.maxSites));
  if (indices.length === 0) return [];
  const slugIndex = new Map<string, number>();
  const slugs: string[] = [];
  for (const i of indices) {
    const slug = actions[i]!.slug;
    if (!slugIndex.has(slug)) {
      slugIndex.set(slug, slugs.length);
      slugs.push(slug);
    }
  }
  const gridSize = KINDS.length * slugs.length;
  const words = Math.ceil(gridSize / 32);
  const slugWords = Math.ceil(slugs.length / 32);
  const cell = (kind: ItemKind, slug: number) => KINDS.indexOf(kind) * slugs.length + slug;

  // Per site: wanted cells and the action indices behind each.
  const perSite = new Map<number, { wanted: Bits; actionsByCell: Map<number, number[]> }>();
  for (const i of indices) {
    const action = actions[i]!;
    let site = perSite.get(action.site_id);
    if (!site) {
      site = { wanted: new Uint32Array(words), actionsByCell: new Map() };
      perSite.set(action.site_id, site);
    }
    const c = cell(action.kind, slugIndex.get(action.slug)!);
    set(site.wanted, c);
    const list = site.actionsByCell.get(c);
    if (list) list.push(i);
    else site.actionsByCell.set(c, [i]);
  }

  const classes = new Map<string, SiteClass>();
  const blockedOf = new Map<number, Bits>();
  for (const [siteId, site] of [...perSite].sort((a, b) => a[0] - b[0])) {
    const blocked = new Uint32Array(words);
    blockedOf.set(siteId, blocked);
    if (input.pendingOf) {
      for (const item of input.pendingOf(siteId)) {
        const s = slugIndex.get(item.slug);
        if (s === undefined) continue;
        const c = cell(item.kind, s);
        if (!has(site.wanted, c)) set(blocked, c);
      }
    } else {
      for (let c = 0; c < gridSize; c++) if (!has(site.wanted, c)) set(blocked, c);
    }
    const key = `${[...site.wanted].join(',')}|${[...blocked].join(',')}`;
    const known = classes.get(key);
    if (known) known.sites.push(siteId);
    else
      classes.set(key, {
        sites: [siteId],
        wanted: site.wanted,
        blocked,
        left: site.wanted.slice(),
        avoid: blocked.slice(),
      });
  }
  let live = [...classes.values()];
  const initial = live.map((cls) => ({ sites: [...cls.sites], wanted: cls.wanted, blocked: cls.blocked }));

  const product = (kinds: number, slugBits: Bits): Candidate => {
    const grid = new Uint32Array(words);
    for (let k = 0; k < KINDS.length; k++) {
      if (!(kinds & (1 << k))) continue;
      for (let s = 0; s < slugs.length; s++) if (has(slugBits, s)) set(grid, k * slugs.length + s);
    }
    return { kinds, slugs: slugBits, grid, gain: Number.POSITIVE_INFINITY };
  };
  const candidates = new Map<string, Candidate>();
  const pool = new GainHeap<Candidate>();
  const addCandidate = (kinds: number, slugBits: Bits) => {
    if (kinds === 0 || isEmpty(slugBits)) return;
    const key = `${kinds}|${[...slugBits].join(',')}`;
    if (candidates.has(key)) return;
    const candidate = product(kinds, slugBits);
    candidates.set(key, candidate);
    pool.push(candidate);
  };
  const kindsOf = (bits: Bits) => {
    let kinds = 0;
    for (let k = 0; k < KINDS.length; k++)
      for (let s = 0; s < slugs.length; s++) if (has(bits, k * slugs.length + s)) kinds |= 1 << k;
    return kinds;
  };
  const slugsOf = (bits: Bits, kinds: number) => {
    const out = new Uint32Array(slugWords);
    for (let k = 0; k < KINDS.length; k++) {
      if (!(kinds & (1 << k))) continue;
      for (let s = 0; s < slugs.length; s++) if (has(bits, k * slugs.length + s)) set(out, s);
    }
    return out;
  };
  const allSlugs = new Uint32Array(slugWords);
  for (let s = 0; s < slugs.length; s++) set(allSlugs, s);
  const allKinds = live.reduce((kinds, c) => kinds | kindsOf(c.wanted), 0);
  addCandidate(allKinds, allSlugs);
  /** A class's own items: all their kinds at once (less the slugs it must avoid), and kind by kind. */
  const addOwnCandidates = (left: Bits, avoid: Bits) => {
    const own = kindsOf(left);
    addCandidate(own, without(slugsOf(left, own), slugsOf(avoid, own)));
    for (let k = 0; k < KINDS.length; k++) {
      if (!(own & (1 << k))) continue;
      addCandidate(1 << k, without(slugsOf(left, 1 << k), slugsOf(avoid, 1 << k)));
    }
  };
  for (const c of live) {
    addCandidate(allKinds, without(allSlugs, slugsOf(c.blocked, allKinds)));
    addOwnCandidates(c.wanted, c.blocked);
    for (let cellIndex = 0; cellIndex < gridSize; cellIndex++) {
      if (!has(c.wanted, cellIndex)) continue;
      const single = new Uint32Array(slugWords);
      set(single, cellIndex % slugs.length);
      addCandidate(1 << Math.floor(cellIndex / slugs.length), single);
    }
  }

  /**
   * The classes a candidate would take, best first (most wanted cells run, then lowest site ID),
   * and what it would run on them. Values are bucketed, not sorted: `live` is kept in site order.
   */
  const evaluate = (candidate: Candidate) => {
    const buckets: SiteClass[][] = [];
    for (const cls of live) {
      if (intersects(cls.avoid, candidate.grid)) continue;
      const value = countAnd(cls.left, candidate.grid);
      if (value === 0) continue;
      const bucket = buckets[value];
      if (bucket) bucket.push(cls);
      else buckets[value] = [cls];
    }
    let room = maxSites;
    let gain = 0;
    const chosen: Array<{ cls: SiteClass; count: number }> = [];
    for (let value = buckets.length - 1; value > 0 && room > 0; value--) {
      for (const cls of buckets[value] ?? []) {
        if (room === 0) break;
        const count = Math.min(room, cls.sites.length);
        chosen.push({ cls, count });
        gain += count * value;
        room -= count;
      }
    }
    return { gain, chosen };
  };

  const calls: GroupedCall[] = [];
  for (;;) {
    // Lazy greedy: a candidate's stored gain bounds its true gain (gains only fall as calls are
    // chosen), so the best stored one whose recomputed gain still beats every other stored gain
    // is the best of all. A candidate whose gain reaches 0 leaves the queue for good.
    const top = pool.pop();
    if (!top || top.gain <= 0) break;
    const now = evaluate(top);
    top.gain = now.gain;
    if (now.gain <= 0) continue;
    const next = pool.peek();
    if (next && now.gain < next.gain) {
      pool.push(top);
      continue;
    }
    calls.push(emit(top, now.chosen));
    pool.push(top);
    live = live.filter((cls) => !isEmpty(cls.left)).sort((a, b) => a.sites[0]! - b.sites[0]!);
  }
  if (live.length > 0) throw new Error('update grouping left wanted items unrun');
  const packed = packSites(
    [...perSite].map(([siteId, site]) => ({ siteId, wanted: site.wanted, blocked: blockedOf.get(siteId)! })),
    { kinds: KINDS, slugs: slugs.length, words },
    maxSites,
  );
  const heuristic =
    packed.length < calls.length
      ? packed.map((call) => {
          const callActions: number[] = [];
          for (const siteId of call.siteIds) {
            const site = perSite.get(siteId)!;
            for (const [c, list] of site.actionsByCell) if (has(call.product, c)) callActions.push(...list);
          }
          callActions.sort((a, b) => a - b);
          return { siteIds: call.siteIds, items: itemsOf(call.runs, KINDS, slugs), actions: callActions };
        })
      : calls;
  const chosen = (perSite.size <= maxSites && searched(heuristic.length)) || heuristic;
  // Sent in site order (then by first action), as the plan lists its actions.
  return chosen.sort((a, b) => a.siteIds[0]! - b.siteIds[0]! || a.actions[0]! - b.actions[0]!);

  /** The bounded search's calls when it beats `count` (small waves only: see update-search.ts). */
  function searched(count: number): GroupedCall[] | undefined {
    if (words !== 1) return undefined;
    const found = fewestProducts(
      initial.map((cls) => ({ wanted: cls.wanted[0]!, blocked: cls.blocked[0]! })),
      { kinds: KINDS.length, slugs: slugs.length },
      count,
      SEARCH_NODES,
    );
    return found?.products.map((product) => {
      const siteIds: number[] = [];
      const callActions: number[] = [];
      const runs = new Uint32Array(1);
      for (const use of product.uses) {
        const cls = initial[use.cls]!;
        runs[0]! |= use.runs;
        for (const siteId of cls.sites) {
          siteIds.push(siteId);
          const site = perSite.get(siteId)!;
          for (const [c, list] of site.actionsByCell) if (use.runs & (1 << c)) callActions.push(...list);
        }
      }
      siteIds.sort((a, b) => a - b);
      callActions.sort((a, b) => a - b);
      return { siteIds, items: itemsOf(runs, KINDS, slugs), actions: callActions };
    });
  }

  function emit(candidate: Candidate, chosen: Array<{ cls: SiteClass; count: number }>): GroupedCall {
    const siteIds: number[] = [];
    const callActions: number[] = [];
    const ran = new Uint32Array(words);
    for (const { cls, count } of chosen) {
      const taken = cls.sites.slice(0, count);
      const runs = and(cls.left, candidate.grid);
      orInto(ran, runs);
      for (const siteId of taken) {
        siteIds.push(siteId);
        const site = perSite.get(siteId)!;
        for (let c = 0; c < gridSize; c++) if (has(runs, c)) callActions.push(...site.actionsByCell.get(c)!);
      }
      const rest = cls.sites.slice(count);
      // The taken sites move on as a class of their own; the rest stay as they were.
      const moved: SiteClass = {
        sites: taken,
        wanted: cls.wanted,
        blocked: cls.blocked,
        left: without(cls.left, candidate.grid),
        avoid: or(cls.avoid, candidate.grid),
      };
      cls.sites = rest;
      if (rest.length === 0) cls.left = new Uint32Array(words);
      live.push(moved);
      addOwnCandidates(moved.left, moved.avoid);
    }
    siteIds.sort((a, b) => a - b);
    callActions.sort((a, b) => a - b);
    const items: ItemRef[] = [];
    for (let c = 0; c < gridSize; c++)
      if (has(ran, c))
        items.push({ kind: KINDS[Math.floor(c / slugs.length)]!, slug: slugs[c % slugs.length]! });
    return { siteIds, items, actions: callActions };
  }
}

function set(bits: Bits, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}
function has(bits: Bits, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}
function isEmpty(bits: Bits): boolean {
  return bits.every((w) => w === 0);
}
function intersects(a: Bits, b: Bits): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i]! & b[i]!) !== 0) return true;
  return false;
}
function countAnd(a: Bits, b: Bits): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) n += popcount(a[i]! & b[i]!);
  return n;
}
function and(a: Bits, b: Bits): Bits {
  return a.map((w, i) => w & b[i]!);
}
function or(a: Bits, b: Bits): Bits {
  return a.map((w, i) => w | b[i]!);
}
function orInto(a: Bits, b: Bits): void {
  for (let i = 0; i < a.length; i++) a[i]! |= b[i]!;
}
function without(a: Bits, b: Bits): Bits {
  return a.map((w, i) => w & ~b[i]!);
}
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
