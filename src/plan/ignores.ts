/**
 * Ignore reconciliation for one site: pair desired and live ignores by (kind, slug) first, then
 * decide from which side is missing. Only `site`-origin ignores can change; `global` and
 * `site-flag` ignores are reported, never unignored.
 *
 * - desired, no live ignore of all versions (any origin)  → `ignore`
 * - live `site` ignore, not desired                        → per ignoreScope: remove → `unignore`
 *   (or a `cannot-unignore` note without that capability), report → `unmanaged-ignore` note,
 *   keep → nothing
 * - live `global` / `site-flag` ignore, not desired        → noted under report/remove
 */
import {
  type Action,
  type DashboardCapabilities,
  FLAG_SLUG,
  type IgnorableKind,
  type IgnoreScope,
  type ItemRef,
  type LiveIgnore,
  type PendingUpdate,
  type PlanNote,
  type Site,
} from '../types.js';
import type { DesiredIgnore, DesiredIgnores } from './desired-ignores.js';
import { ItemMap } from './item-map.js';
import type { LiveSiteFacts } from './live-index.js';
import type { NoteBook } from './notes.js';
import { compareKinds, compareText } from './order.js';
import { describeItem, displayName, sourceLabel } from './reasons.js';

const SURFACE_NAMES = { abilities: 'abilities API', rest: 'REST API' } as const;

/** What keeps a site's updates hidden once the plan has run (see `staysIgnored`). */
export interface IgnoresAfter {
  desired: DesiredIgnores;
  /** The site's live ignores. */
  live: readonly LiveIgnore[];
  /** The plan's `unignore` actions on the site: their per-site ignores are gone after it. */
  unignores: readonly Action[];
}

export interface SiteIgnoreOutcome {
  /** `ignore` actions, in action order (kind, then slug). */
  ignores: Action[];
  /** `unignore` actions, in action order. */
  unignores: Action[];
  /** About this site; createPlan merges them across sites, so they name no site themselves. */
  notes: Array<Omit<PlanNote, 'site_ids'>>;
  /**
   * Live ignores the desired state does not mention and the plan leaves in place; noted for
   * the whole fleet at once (undesiredIgnoreNotes), one note per item.
   */
  unmanaged: LiveIgnore[];
  after: IgnoresAfter;
}

export interface IgnoreContext {
  scope: IgnoreScope;
  capabilities: DashboardCapabilities;
  /** The variable notes name for the REST API key (PlanOptions.tokenVariable). */
  tokenVariable: string;
}

/**
 * How the site's live ignores stand on `want`: true when one covers all versions, else the
 * versions they ignore (none: an empty list).
 */
function liveCoverage(live: readonly LiveIgnore[], want: ItemRef): true | readonly string[] {
  // Most sites have no live ignore of a desired item: the list is made only when one is found.
  let versions: string[] | undefined;
  for (let i = 0; i < live.length; i++) {
    const ignore = live[i] as LiveIgnore;
    if (ignore.kind !== want.kind || ignore.slug !== want.slug) continue;
    if (ignore.versions === 'all') return true;
    versions ??= [];
    versions.push(...ignore.versions);
  }
  return versions ?? NO_VERSIONS;
}

const NO_VERSIONS: readonly string[] = Object.freeze([]);

/** The reason of an `ignore` action: the rule's own, unless live ignores some versions already. */
function ignoreReason(want: DesiredIgnore, partial: readonly string[]): string {
  // Each version once, sorted: the dashboard's order and repeats must not change the plan.
  if (partial.length === 0) return want.reason;
  return `${want.reason}; live ignores only ${[...new Set(partial)].sort(compareText).join(', ')}`;
}

/** What becomes of a live ignore the desired state does not mention (scope is not `keep`). */
function undesired(ignore: LiveIgnore, context: IgnoreContext): 'global' | 'unignore' | PlanNote['kind'] {
  if (ignore.origin === 'global') return 'global';
  if (ignore.origin === 'site-flag' || context.scope === 'report') return 'unmanaged-ignore';
  return context.capabilities.canUnignore ? 'unignore' : 'cannot-unignore';
}

function canIgnore(capabilities: DashboardCapabilities, kind: IgnorableKind): boolean {
  return kind === 'core' ? capabilities.canIgnoreCore : capabilities.canIgnore;
}

function cannotIgnoreMessage(want: DesiredIgnore, context: IgnoreContext): string {
  const surface = SURFACE_NAMES[context.capabilities.surface];
  return `${describeItem(want)} is ignored by the desired state (${sourceLabel(want.source)}), but the dashboard's ${surface} cannot ignore it; it is not updated, and ignoring it needs the abilities API or the dashboard UI`;
}

function undesiredMessage(ignore: LiveIgnore, context: IgnoreContext): string {
  const item = describeItem(ignore);
  if (ignore.origin === 'site-flag') {
    return `every ${ignore.kind} update is ignored by a site-wide flag the desired state does not mention (set or clear it with site_flags in an ignore rule)`;
  }
  if (context.scope === 'report')
    return `per-site ignore of ${item} is not in the desired state (ignores.unmanaged: report)`;
  const surface = SURFACE_NAMES[context.capabilities.surface];
  return `per-site ignore of ${item} is not in the desired state, but the dashboard's ${surface} cannot unignore; remove it in the dashboard`;
}

function sameItem(a: ItemRef, b: ItemRef): boolean {
  return a.kind === b.kind && a.slug === b.slug;
}

function byItem(a: ItemRef, b: ItemRef): number {
  return compareKinds(a.kind, b.kind) || compareText(a.slug, b.slug);
}

function ignoreAction(
  site: Site,
  op: 'ignore' | 'unignore',
  item: ItemRef,
  name: string,
  reason: string,
): Action {
  const { kind, slug } = item;
  // Keys in code-unit order: canonical JSON (the id) writes the record as built.
  return { kind, name, op, reason, risk: 'low', site_id: site.id, site_url: site.url, slug };
}

/**
 * A site has a few live ignores and the desired state names a few items: plain scans over
 * them, and lookups in the (shared) desired set, cost less than a map built per site.
 */
export function planSiteIgnores(
  facts: LiveSiteFacts,
  desired: DesiredIgnores,
  context: IgnoreContext,
): SiteIgnoreOutcome {
  const { site, ignores: live } = facts;
  const ignores: Action[] = [];
  const unignores: Action[] = [];
  const notes: SiteIgnoreOutcome['notes'] = [];
  const unmanaged: LiveIgnore[] = [];

  for (const want of desired.items) {
    const coverage = liveCoverage(live, want);
    if (coverage === true) continue;
    if (!canIgnore(context.capabilities, want.kind)) {
      // No action apply could not perform; the item still counts as ignored for updates below.
      const message = cannotIgnoreMessage(want, context);
      notes.push({ kind: 'cannot-ignore', item: { kind: want.kind, slug: want.slug }, message });
      continue;
    }
    const name = displayName(facts.pending, want.kind, want.slug);
    ignores.push(ignoreAction(site, 'ignore', want, name, ignoreReason(want, coverage)));
  }

  if (context.scope !== 'keep') {
    for (const ignore of live) {
      if (desired.byItem.has(ignore.kind, ignore.slug)) continue;
      // A flag the desired state names is planned by planSiteFlags.
      if (ignore.origin === 'site-flag' && desired.flags.has(ignore.kind)) continue;
      if (undesired(ignore, context) !== 'unignore') {
        unmanaged.push(ignore);
      } else if (!unignores.some((action) => sameItem(action, ignore))) {
        const reason = 'per-site ignore not in the desired state (ignores.unmanaged: remove)';
        const name = displayName(facts.pending, ignore.kind, ignore.slug);
        unignores.push(ignoreAction(site, 'unignore', ignore, name, reason));
      }
    }
  }
  planSiteFlags(site, live, desired, context, { ignores, unignores, notes });
  if (ignores.length > 1) ignores.sort(byItem);
  if (unignores.length > 1) unignores.sort(byItem);
  return { ignores, unignores, notes, unmanaged, after: { desired, live, unignores } };
}

/**
 * Notes for the live ignores that stay although the desired state does not mention them, one
 * per item and verdict listing its sites. A global ignore is listed alike on every site, so
 * its note is plan-wide with a count: a list would only repeat the fleet.
 */
export function undesiredIgnoreNotes(
  unmanaged: readonly LiveIgnore[],
  context: IgnoreContext,
  book: NoteBook,
) {
  type Group = { ignore: LiveIgnore; sites: number[] };
  const byOrigin = new Map<string, ItemMap<Group>>();
  const groups: Group[] = [];
  for (const ignore of unmanaged) {
    let sameOrigin = byOrigin.get(ignore.origin);
    if (!sameOrigin) {
      sameOrigin = new ItemMap();
      byOrigin.set(ignore.origin, sameOrigin);
    }
    const group = sameOrigin.get(ignore.kind, ignore.slug);
    // Sites come in ascending order: a repeat of the same site is the last one listed.
    if (!group) {
      const created = { ignore, sites: [ignore.siteId] };
      sameOrigin.set(ignore.kind, ignore.slug, created);
      groups.push(created);
    } else if (group.sites.at(-1) !== ignore.siteId) group.sites.push(ignore.siteId);
  }
  for (const { ignore, sites } of groups) {
    const item = { kind: ignore.kind, slug: ignore.slug };
    const verdict = undesired(ignore, context);
    if (verdict === 'global') {
      const count = `${sites.length} managed site${sites.length === 1 ? '' : 's'}`;
      const message = `global ignore of ${describeItem(item)} (on ${count}) is not in the desired state; it is listed alike on every site, so it is taken for the dashboard's global list, which svc-gitops never changes`;
      book.add({ kind: 'unmanaged-ignore', item, message });
    } else if (verdict !== 'unignore') {
      book.add({ kind: verdict, item, message: undesiredMessage(ignore, context) }, sites);
    }
  }
}

/**
 * Sets or clears the site-wide flags the desired state names (`site_flags`), through the site
 * edit route: an `ignore`/`unignore` action with slug `*`. Without a REST API key the flags can
 * be neither seen nor changed: a note says so instead.
 */
function planSiteFlags(
  site: Site,
  live: readonly LiveIgnore[],
  desired: DesiredIgnores,
  context: IgnoreContext,
  out: { ignores: Action[]; unignores: Action[]; notes: SiteIgnoreOutcome['notes'] },
): void {
  for (const [kind, flag] of desired.flags) {
    const on = live.some((ignore) => ignore.origin === 'site-flag' && ignore.kind === kind);
    if (on === flag.value && context.capabilities.siteFlags !== 'unseen') continue;
    const item = { kind, slug: FLAG_SLUG };
    const verb = flag.value ? 'sets' : 'clears';
    if (context.capabilities.siteFlags !== 'read-write') {
      if (context.capabilities.siteFlags === 'unseen' || on !== flag.value) {
        const message = `the desired state (${sourceLabel(flag.source)}) ${verb} the site-wide flag ignoring every ${kind} update, but reading and changing it needs a REST API key (${context.tokenVariable})`;
        out.notes.push({ kind: flag.value ? 'cannot-ignore' : 'cannot-unignore', item, message });
      }
      continue;
    }
    const reason = `site-wide flag ${flag.value ? 'set' : 'cleared'} by the desired state (${sourceLabel(flag.source)})`;
    const action = ignoreAction(site, flag.value ? 'ignore' : 'unignore', item, flagName(kind), reason);
    (flag.value ? out.ignores : out.unignores).push(action);
  }
}

export function flagName(kind: IgnorableKind): string {
  return `every ${kind} update (site-wide flag)`;
}

/** Whether `update` stays hidden by an ignore once the plan has run. */
export function staysIgnored(after: IgnoresAfter, update: PendingUpdate): boolean {
  if (update.kind === 'translation') return false;
  if (after.desired.byItem.has(update.kind, update.slug)) return true;
  if (after.desired.flags.get(update.kind)?.value === true) return true;
  for (const ignore of after.live) {
    // A site-wide flag ignores its whole kind, unless the plan clears it.
    if (ignore.origin === 'site-flag') {
      if (ignore.kind !== update.kind) continue;
      if (after.unignores.some((action) => action.kind === update.kind && action.slug === FLAG_SLUG))
        continue;
      return true;
    }
    if (!sameItem(ignore, update)) continue;
    // An unignored per-site entry is gone after the plan; every other live ignore stays.
    if (ignore.origin === 'site' && after.unignores.some((action) => sameItem(action, update))) continue;
    if (ignore.versions === 'all' || ignore.versions.includes(update.to)) return true;
  }
  return false;
}
