/**
 * The plan's `security` section: security updates and vulnerable versions merged per (item,
 * move, advisories), each listing its sites, and the advisories they name. Ordered most severe
 * first (highest CVSS), then by kind, slug and versions, so every view leads with what matters.
 */
import type { Advisory, PendingUpdate, PlanAdvisory, PlanSecurity, SecurityMove } from '../types.js';
import { compareText } from './order.js';

type Fix = 'update' | 'no-fix' | 'not-planned';

export interface SecurityBook {
  add(update: PendingUpdate, advisories: readonly Advisory[], fix: Fix, siteId: number): void;
  section(): PlanSecurity;
}

function planAdvisory(advisory: Advisory): PlanAdvisory {
  const out: PlanAdvisory = { link: advisory.link, title: advisory.title };
  if (advisory.cve !== undefined) out.cve = advisory.cve;
  if (advisory.cvss !== undefined) out.cvss = advisory.cvss;
  return out;
}

/** What an advisory list contributes to each entry naming it, derived once per list. */
interface ListFacts {
  ids: string[];
  severity: number;
}

type Entry = { move: SecurityMove; fix: Fix; severity: number };
/** Entries of one list and fix, by installed version, then target. */
type ByFrom = Map<string, Map<string, Entry>>;

export function createSecurityBook(feed: PlanSecurity['feed']): SecurityBook {
  const advisories = new Map<string, PlanAdvisory>();
  // The security index shares one list per distinct set of an item's advisories across the
  // moves of a fleet: an entry is found by (list, fix, from, to), without a key per site.
  const byList = new Map<readonly Advisory[], { facts: ListFacts; entries: ByFrom[] }>();
  const moves: Entry[] = [];
  const factsOf = (found: readonly Advisory[]): ListFacts => {
    for (const advisory of found)
      if (!advisories.has(advisory.id)) advisories.set(advisory.id, planAdvisory(advisory));
    const ids = [...new Set(found.map((advisory) => advisory.id))].sort(compareText);
    return { ids, severity: Math.max(-1, ...found.map((advisory) => advisory.cvss ?? -1)) };
  };
  return {
    add(update, found, fix, siteId) {
      let known = byList.get(found);
      if (!known) {
        known = { facts: factsOf(found), entries: FIXES.map(() => new Map()) };
        byList.set(found, known);
      }
      const byFrom = known.entries[FIXES.indexOf(fix)]!;
      let byTo = byFrom.get(update.from);
      if (!byTo) {
        byTo = new Map();
        byFrom.set(update.from, byTo);
      }
      let entry = byTo.get(update.to);
      if (!entry) {
        const name = update.name !== '' ? update.name : update.slug;
        const { kind, slug, from, to } = update;
        const { ids, severity } = known.facts;
        const move: SecurityMove = { kind, slug, name, from, to, advisories: ids.slice(), site_ids: [] };
        entry = { move, fix, severity };
        byTo.set(update.to, entry);
        moves.push(entry);
      }
      entry.move.site_ids.push(siteId);
    },
    section() {
      const entries = [...moves].sort(
        (a, b) =>
          b.severity - a.severity ||
          compareText(a.move.kind, b.move.kind) ||
          compareText(a.move.slug, b.move.slug) ||
          compareText(a.move.from, b.move.from) ||
          compareText(a.move.to, b.move.to) ||
          compareText(a.fix, b.fix),
      );
      for (const { move } of entries) move.site_ids = ascendingOnce(move.site_ids);
      const ids = [...advisories.keys()].sort(compareText);
      const updates: SecurityMove[] = [];
      const vulnerable: PlanSecurity['vulnerable'] = [];
      for (const { move, fix } of entries) {
        if (fix === 'update') updates.push(move);
        else {
          const { kind, slug, name, from, to, advisories: names, site_ids } = move;
          vulnerable.push({ kind, slug, name, from, to, advisories: names, site_ids, fix });
        }
      }
      return {
        feed,
        advisories: Object.fromEntries(ids.map((id) => [id, advisories.get(id)!])),
        updates,
        vulnerable,
      };
    },
  };
}

const FIXES: readonly Fix[] = ['update', 'no-fix', 'not-planned'];

/** Site ids ascending, each once: as added when they already are (sites are planned in order). */
function ascendingOnce(ids: number[]): number[] {
  let ascending = true;
  for (let i = 1; i < ids.length && ascending; i++) ascending = ids[i - 1]! < ids[i]!;
  return ascending ? ids : [...new Set(ids)].sort((a, b) => a - b);
}
