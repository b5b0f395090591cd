import type { ItemKind, ItemRef } from '../types.js';

/**
 * The second grouping strategy of update-grouping.ts: pack whole sites into calls. Pure.
 *
 * Each site becomes one part (all its wanted items) when the product of their kinds and slugs
 * holds nothing blocked on it, else one part per kind (a kind's own wanted slugs name only
 * wanted items). Parts are placed hardest first (most blocked items, then most wanted) into the
 * open call whose product grows least and stays clear of every member's forbidden items: what is
 * blocked on its site, and for a site split into parts, its wanted items outside the part (so no
 * item runs twice). A part that fits nowhere opens a call; then calls are merged while two fit
 * together under the same rule. Calls hold at most `maxSites` sites.
 */

export interface PackSite {
  siteId: number;
  /** Wanted and blocked cells of the (kind × slug) grid, as bit sets of `words` words. */
  wanted: Uint32Array;
  blocked: Uint32Array;
}

export interface PackedCall {
  siteIds: number[];
  /** The call's product (kinds × slugs) as cells. */
  product: Uint32Array;
  /** Cells the call's product runs on at least one of its sites. */
  runs: Uint32Array;
}

export function packSites(
  sites: readonly PackSite[],
  grid: { kinds: readonly ItemKind[]; slugs: number; words: number },
  maxSites: number,
): PackedCall[] {
  const { kinds, slugs, words } = grid;
  const productOf = (kindMask: number, slugBits: Uint32Array) => {
    const out = new Uint32Array(words);
    for (let k = 0; k < kinds.length; k++) {
      if (!(kindMask & (1 << k))) continue;
      for (let s = 0; s < slugs; s++) if (has(slugBits, s)) set(out, k * slugs + s);
    }
    return out;
  };
  const slugWords = Math.ceil(slugs / 32);
  const shape = (cells: Uint32Array) => {
    let kindMask = 0;
    const slugBits = new Uint32Array(slugWords);
    for (let c = 0; c < kinds.length * slugs; c++) {
      if (!has(cells, c)) continue;
      kindMask |= 1 << Math.floor(c / slugs);
      set(slugBits, c % slugs);
    }
    return { kindMask, slugBits };
  };

  interface Part {
    siteId: number;
    wanted: Uint32Array;
    kindMask: number;
    slugBits: Uint32Array;
    forbidden: Uint32Array;
    hardness: number;
  }
  const parts: Part[] = [];
  for (const site of sites) {
    const whole = shape(site.wanted);
    const hardness = count(site.blocked);
    if (!intersects(productOf(whole.kindMask, whole.slugBits), site.blocked)) {
      parts.push({ siteId: site.siteId, wanted: site.wanted, ...whole, forbidden: site.blocked, hardness });
      continue;
    }
    for (let k = 0; k < kinds.length; k++) {
      if (!(whole.kindMask & (1 << k))) continue;
      const mine = and(site.wanted, productOf(1 << k, whole.slugBits));
      parts.push({
        siteId: site.siteId,
        wanted: mine,
        ...shape(mine),
        forbidden: or(site.blocked, without(site.wanted, mine)),
        hardness: hardness + 1,
      });
    }
  }
  parts.sort((a, b) => b.hardness - a.hardness || count(b.wanted) - count(a.wanted) || a.siteId - b.siteId);

  interface Open {
    kindMask: number;
    slugBits: Uint32Array;
    product: Uint32Array;
    forbidden: Uint32Array;
    members: Part[];
    sites: Set<number>;
  }
  const open: Open[] = [];
  for (const part of parts) {
    let best:
      | { call: Open; growth: number; kindMask: number; slugBits: Uint32Array; product: Uint32Array }
      | undefined;
    for (const call of open) {
      if (call.members.length >= maxSites || call.sites.has(part.siteId)) continue;
      const kindMask = call.kindMask | part.kindMask;
      const slugBits = or(call.slugBits, part.slugBits);
      const product = productOf(kindMask, slugBits);
      if (intersects(product, call.forbidden) || intersects(product, part.forbidden)) continue;
      const growth = count(product) - count(call.product);
      if (
        !best ||
        growth < best.growth ||
        (growth === best.growth && call.members.length > best.call.members.length)
      )
        best = { call, growth, kindMask, slugBits, product };
    }
    if (best) {
      const { call } = best;
      call.kindMask = best.kindMask;
      call.slugBits = best.slugBits;
      call.product = best.product;
      call.forbidden = or(call.forbidden, part.forbidden);
      call.members.push(part);
      call.sites.add(part.siteId);
    } else {
      open.push({
        kindMask: part.kindMask,
        slugBits: part.slugBits,
        product: productOf(part.kindMask, part.slugBits),
        forbidden: part.forbidden,
        members: [part],
        sites: new Set([part.siteId]),
      });
    }
  }
  // Then merge whole calls while two fit together: placement in order can leave calls that a
  // later part's widening made compatible.
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < open.length && !merged; i++) {
      for (let j = i + 1; j < open.length; j++) {
        const a = open[i]!;
        const b = open[j]!;
        if (a.members.length + b.members.length > maxSites) continue;
        if ([...b.sites].some((site) => a.sites.has(site))) continue;
        const kindMask = a.kindMask | b.kindMask;
        const slugBits = or(a.slugBits, b.slugBits);
        const product = productOf(kindMask, slugBits);
        if (intersects(product, a.forbidden) || intersects(product, b.forbidden)) continue;
        open[i] = {
          kindMask,
          slugBits,
          product,
          forbidden: or(a.forbidden, b.forbidden),
          members: [...a.members, ...b.members],
          sites: new Set([...a.sites, ...b.sites]),
        };
        open.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return open.map((call) => {
    const runs = new Uint32Array(words);
    for (const m of call.members) for (let i = 0; i < words; i++) runs[i]! |= m.wanted[i]! & call.product[i]!;
    return { siteIds: call.members.map((m) => m.siteId).sort((a, b) => a - b), product: call.product, runs };
  });
}

/** The cells of `runs` as items, kind by kind. */
export function itemsOf(runs: Uint32Array, kinds: readonly ItemKind[], slugs: readonly string[]): ItemRef[] {
  const items: ItemRef[] = [];
  for (let c = 0; c < kinds.length * slugs.length; c++)
    if (has(runs, c))
      items.push({ kind: kinds[Math.floor(c / slugs.length)]!, slug: slugs[c % slugs.length]! });
  return items;
}

function set(bits: Uint32Array, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}
function has(bits: Uint32Array, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}
function intersects(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if ((a[i]! & b[i]!) !== 0) return true;
  return false;
}
function and(a: Uint32Array, b: Uint32Array): Uint32Array {
  return a.map((w, i) => w & b[i]!);
}
function or(a: Uint32Array, b: Uint32Array): Uint32Array {
  return a.map((w, i) => w | b[i]!);
}
function without(a: Uint32Array, b: Uint32Array): Uint32Array {
  return a.map((w, i) => w & ~b[i]!);
}
function count(a: Uint32Array): number {
  let n = 0;
  for (const w of a) {
    let v = w - ((w >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    n += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return n;
}
