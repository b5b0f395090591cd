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

export function createSecurityBook(feed: PlanSecurity['feed']): SecurityBook {
  const advisories = new Map<string, PlanAdvisory>();
  type Entry = { move: SecurityMove; fix: Fix; severity: number };
  // A verdict's advisory list stands for one (item, move) of the plan: with the fix, it names
  // an entry without building a key per site.
  const byList = new Map<readonly Advisory[], Map<Fix, Entry>>();
  const moves: Entry[] = [];
  return {
    add(update, found, fix, siteId) {
      let byFix = byList.get(found);
      if (!byFix) {
        byFix = new Map();
        byList.set(found, byFix);
      }
      let entry = byFix.get(fix);
      if (!entry) {
        const ids = [...new Set(found.map((advisory) => advisory.id))].sort(compareText);
        for (const advisory of found)
          if (!advisories.has(advisory.id)) advisories.set(advisory.id, planAdvisory(advisory));
        const name = update.name !== '' ? update.name : update.slug;
        const { kind, slug, from, to } = update;
        const move: SecurityMove = { kind, slug, name, from, to, advisories: ids, site_ids: [] };
        const severity = Math.max(-1, ...found.map((advisory) => advisory.cvss ?? -1));
        entry = { move, fix, severity };
        byFix.set(fix, entry);
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
      for (const { move } of entries) move.site_ids = [...new Set(move.site_ids)].sort((a, b) => a - b);
      const ids = [...advisories.keys()].sort(compareText);
      return {
        feed,
        advisories: Object.fromEntries(ids.map((id) => [id, advisories.get(id)!])),
        updates: entries.filter((entry) => entry.fix === 'update').map((entry) => entry.move),
        vulnerable: entries
          .filter((entry) => entry.fix !== 'update')
          .map((entry) => ({ ...entry.move, fix: entry.fix as 'no-fix' | 'not-planned' })),
      };
    },
  };
}
