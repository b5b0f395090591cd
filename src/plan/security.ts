/**
 * Which pending updates are security updates, from the advisories the caller read from a feed
 * (the planner never reads one itself). An update is a security update when its installed
 * version (`from`) lies in an affected range of an advisory (each end inclusive or exclusive as
 * the advisory says; `*` is open) and its target (`to`) is at or above one of the advisory's
 * patched versions and itself outside every affected range. An advisory that affects `from`
 * but that `to` does not fix leaves the site vulnerable with no fix pending.
 *
 * Advisories name plugins by their folder; the dashboard names them `folder/file.php` (or
 * `file.php` for a single-file plugin, looked up as `file`). Each distinct (item, move) is
 * judged once per plan: a fleet repeats the same few moves on thousands of sites.
 */
import type { Advisory, ItemKind, PendingUpdate, VersionRange } from '../types.js';
import { memoPairs } from './memo.js';
import { compareVersions } from './versions.js';

export interface SecurityVerdict {
  /** Advisories that affect `from` and that `to` fixes, in feed order. */
  fixed: readonly Advisory[];
  /** Advisories that affect `from` and that `to` does not fix. */
  unfixed: readonly Advisory[];
}

export interface SecurityIndex {
  /** Undefined when no advisory affects the update's installed version. */
  judge(update: Pick<PendingUpdate, 'kind' | 'slug' | 'from' | 'to'>): SecurityVerdict | undefined;
}

/** The feed's slug of a dashboard slug: a plugin's folder, or its file name without `.php`. */
export function feedSlug(kind: ItemKind, slug: string): string {
  if (kind !== 'plugin') return slug;
  const slash = slug.indexOf('/');
  if (slash > 0) return slug.slice(0, slash);
  return slug.endsWith('.php') ? slug.slice(0, -'.php'.length) : slug;
}

const OPEN = '*';

export function inRange(version: string, range: VersionRange, compare = compareVersions): boolean {
  if (range.from !== OPEN && range.from !== '') {
    const low = compare(version, range.from);
    if (low < 0 || (low === 0 && !range.fromInclusive)) return false;
  }
  if (range.to !== OPEN && range.to !== '') {
    const high = compare(version, range.to);
    if (high > 0 || (high === 0 && !range.toInclusive)) return false;
  }
  return true;
}

export function createSecurityIndex(advisories: readonly Advisory[]): SecurityIndex {
  const byItem = new Map<string, Advisory[]>();
  for (const advisory of advisories) {
    const key = `${advisory.kind} ${advisory.slug}`;
    const list = byItem.get(key);
    if (list) list.push(advisory);
    else byItem.set(key, [advisory]);
  }
  const compare = memoPairs(compareVersions);
  const affects = (advisory: Advisory, version: string) =>
    advisory.affected.some((range) => inRange(version, range, compare));
  const fixes = (advisory: Advisory, to: string) =>
    to !== '' && !affects(advisory, to) && advisory.patched.some((patched) => compare(to, patched) >= 0);
  const verdicts = new Map<string, Map<string, SecurityVerdict | null>>();
  return {
    judge(update) {
      if (update.kind === 'translation') return undefined;
      const list = byItem.get(`${update.kind} ${feedSlug(update.kind, update.slug)}`);
      if (!list) return undefined;
      let byMove = verdicts.get(update.slug);
      if (!byMove) {
        byMove = new Map();
        verdicts.set(update.slug, byMove);
      }
      const move = `${update.from}\0${update.to}`;
      let verdict = byMove.get(move);
      if (verdict === undefined) {
        const affecting = list.filter((advisory) => affects(advisory, update.from));
        const fixed = affecting.filter((advisory) => fixes(advisory, update.to));
        const unfixed = affecting.filter((advisory) => !fixed.includes(advisory));
        verdict = affecting.length === 0 ? null : { fixed, unfixed };
        byMove.set(move, verdict);
      }
      return verdict ?? undefined;
    },
  };
}

/** `CVE-2024-1 (CVSS 9.8)`, or the title when the advisory has no CVE id. */
export function advisoryLabel(advisory: Advisory): string {
  const name = advisory.cve ?? advisory.title;
  return advisory.cvss === undefined ? name : `${name} (CVSS ${advisory.cvss})`;
}
