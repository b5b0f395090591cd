/**
 * What the notifications have already said about vulnerable, no-fix sites, kept in the rollout
 * state so a scheduled rollout does not repeat it every run: one line per item version and
 * advisory, `{"notified":"plugin contact-form-7/wp-contact-form-7.php 5.0 <advisory id>",
 * "at":…,"sites":[5,6]}`. Only a delivered notification is remembered. Lost or older memory is
 * the safe side: a site not remembered is notified again. Two records of one key (a union merge)
 * are read as every site of either, the earlier time.
 */
import type { NotifiedRecord, Plan, RolloutState, SecurityMove } from '../types.js';

export const NOTIFIED_KEYS = new Set(['notified', 'at', 'sites']);

export interface NotifiedReader {
  time(value: unknown, what: string): string;
  bad(what: string): never;
}

export function readNotified(record: Record<string, unknown>, read: NotifiedReader): NotifiedRecord {
  const at = read.time(record.at, 'at');
  const sites = record.sites;
  if (!Array.isArray(sites) || !sites.every((id) => Number.isInteger(id) && (id as number) > 0))
    read.bad("a notified record's sites must be a list of site ids");
  return { at, sites: [...new Set(sites as number[])].sort((a, b) => a - b) };
}

export function mergeNotified(a: NotifiedRecord, b: NotifiedRecord): NotifiedRecord {
  const at = Date.parse(a.at) <= Date.parse(b.at) ? a.at : b.at;
  return { at, sites: [...new Set([...a.sites, ...b.sites])].sort((x, y) => x - y) };
}

export function writeNotified(key: string, record: NotifiedRecord): string {
  return JSON.stringify({ notified: key, at: record.at, sites: record.sites });
}

/** The key of one advisory of a vulnerable move: `kind slug version advisory`. */
export function notifiedKey(move: Pick<SecurityMove, 'kind' | 'slug' | 'from'>, advisory: string): string {
  return `${move.kind} ${move.slug} ${move.from} ${advisory}`;
}

function noFixMoves(plan: Pick<Plan, 'security'>): Array<SecurityMove & { fix: 'no-fix' }> {
  return (plan.security?.vulnerable ?? []).filter(
    (move): move is SecurityMove & { fix: 'no-fix' } => move.fix === 'no-fix',
  );
}

/**
 * The plan's vulnerable, no-fix moves cut to what `state` does not remember: each keeps the
 * sites and advisories with at least one (site, advisory) pair not yet notified; a move with
 * none is left out. Without a state every move is new.
 */
export function unnotifiedMoves(
  plan: Pick<Plan, 'security'>,
  state: Pick<RolloutState, 'notified'> | undefined,
): Array<SecurityMove & { fix: 'no-fix' }> {
  const out: Array<SecurityMove & { fix: 'no-fix' }> = [];
  for (const move of noFixMoves(plan)) {
    const sites = new Set<number>();
    const advisories: string[] = [];
    for (const advisory of move.advisories) {
      const known = new Set(state?.notified?.[notifiedKey(move, advisory)]?.sites ?? []);
      const fresh = move.site_ids.filter((id) => !known.has(id));
      if (fresh.length === 0) continue;
      advisories.push(advisory);
      for (const id of fresh) sites.add(id);
    }
    if (advisories.length === 0) continue;
    out.push({ ...move, advisories, site_ids: [...sites].sort((a, b) => a - b) });
  }
  return out;
}

/**
 * The state after a delivered notification: every (site, advisory) pair of the plan's
 * vulnerable, no-fix moves remembered. Keys the plan no longer lists are dropped (the item was
 * updated or the advisory changed), so the memory stays the size of what is vulnerable now; a
 * site vulnerable again later is news again.
 */
export function recordNotified(state: RolloutState, plan: Pick<Plan, 'security'>, now: Date): RolloutState {
  const notified: Record<string, NotifiedRecord> = {};
  for (const move of noFixMoves(plan)) {
    for (const advisory of move.advisories) {
      const key = notifiedKey(move, advisory);
      const fresh: NotifiedRecord = { at: now.toISOString(), sites: [...move.site_ids] };
      const known = notified[key] ?? state.notified?.[key];
      notified[key] = known ? mergeNotified(known, fresh) : fresh;
    }
  }
  const next: RolloutState = { ...state };
  if (Object.keys(notified).length > 0) next.notified = notified;
  else delete next.notified;
  return next;
}
