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
import type {
  Action,
  DashboardCapabilities,
  IgnorableKind,
  IgnoreScope,
  ItemRef,
  LiveIgnore,
  PendingUpdate,
  PlanNote,
  Site,
  SourceRef,
} from '../types.js';
import { itemKey, type LiveSiteFacts } from './live-index.js';
import type { NoteBook } from './notes.js';
import { describeItem, displayName, sourceLabel } from './reasons.js';

const SURFACE_NAMES = { abilities: 'abilities API', rest: 'REST API' } as const;

export interface DesiredIgnore {
  kind: IgnorableKind;
  slug: string;
  source: SourceRef;
  /** The reason of its `ignore` actions, written once per rule: thousands of sites share it. */
  reason: string;
}

/** What keeps a site's updates hidden once the plan has run (see `staysIgnored`). */
export interface IgnoresAfter {
  desired: ReadonlyMap<string, DesiredIgnore>;
  /** Live ignores by item key. */
  live: ReadonlyMap<string, readonly LiveIgnore[]>;
  /** Item keys whose per-site ignore the plan removes. */
  unignored: ReadonlySet<string>;
  /** Kinds a site-wide flag ignores as a whole. */
  flagged: ReadonlySet<IgnorableKind>;
}

export interface SiteIgnoreOutcome {
  actions: Action[];
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
}

/** The reason of an `ignore` action: the rule's own, unless live ignores some versions already. */
function ignoreReason(want: DesiredIgnore, have: readonly LiveIgnore[]): string {
  if (have.length === 0) return want.reason;
  const partial = have.flatMap((ignore) => (ignore.versions === 'all' ? [] : ignore.versions));
  return partial.length === 0 ? want.reason : `${want.reason}; live ignores only ${partial.join(', ')}`;
}

/** The reason shared by every `ignore` action a rule's item makes. */
export function desiredIgnoreReason(source: SourceRef): string {
  return `ignored by the desired state (${sourceLabel(source)})`;
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
    return `every ${ignore.kind} update is ignored by a site-wide flag; svc-gitops never clears it (change it in the dashboard)`;
  }
  if (context.scope === 'report')
    return `per-site ignore of ${item} is not in the desired state (ignoreScope: report)`;
  const surface = SURFACE_NAMES[context.capabilities.surface];
  return `per-site ignore of ${item} is not in the desired state, but the dashboard's ${surface} cannot unignore; remove it in the dashboard`;
}

const NO_IGNORES: ReadonlyMap<string, readonly LiveIgnore[]> = new Map();
const NONE: ReadonlySet<never> = new Set();

/** The site's live ignores by item key (most sites have a few; many have none). */
function liveByItem(ignores: readonly LiveIgnore[]): ReadonlyMap<string, readonly LiveIgnore[]> {
  if (ignores.length === 0) return NO_IGNORES;
  const live = new Map<string, LiveIgnore[]>();
  for (const ignore of ignores) {
    const key = itemKey(ignore.kind, ignore.slug);
    const entries = live.get(key);
    if (entries) entries.push(ignore);
    else live.set(key, [ignore]);
  }
  return live;
}

/** Kinds ignored as a whole on the site by a site-wide flag (usually none). */
function flaggedKinds(ignores: readonly LiveIgnore[]): ReadonlySet<IgnorableKind> {
  let flagged: Set<IgnorableKind> | undefined;
  for (const ignore of ignores) {
    if (ignore.origin !== 'site-flag') continue;
    flagged ??= new Set();
    flagged.add(ignore.kind);
  }
  return flagged ?? NONE;
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

export function planSiteIgnores(
  facts: LiveSiteFacts,
  desired: ReadonlyMap<string, DesiredIgnore>,
  context: IgnoreContext,
): SiteIgnoreOutcome {
  const { site } = facts;
  const live = liveByItem(facts.ignores);
  const actions: Action[] = [];
  const notes: SiteIgnoreOutcome['notes'] = [];
  const unmanaged: LiveIgnore[] = [];

  for (const [key, want] of desired) {
    const have = live.get(key) ?? [];
    if (have.some((ignore) => ignore.versions === 'all')) continue;
    if (!canIgnore(context.capabilities, want.kind)) {
      // No action apply could not perform; the item still counts as ignored for updates below.
      const message = cannotIgnoreMessage(want, context);
      notes.push({ kind: 'cannot-ignore', item: { kind: want.kind, slug: want.slug }, message });
      continue;
    }
    const name = displayName(facts.pending, want.kind, want.slug);
    actions.push(ignoreAction(site, 'ignore', want, name, ignoreReason(want, have)));
  }

  const unignored = new Set<string>();
  for (const [key, ignores] of live) {
    if (desired.has(key) || context.scope === 'keep') continue;
    for (const ignore of ignores) {
      if (undesired(ignore, context) !== 'unignore') {
        unmanaged.push(ignore);
      } else if (!unignored.has(key)) {
        unignored.add(key);
        const reason = 'per-site ignore not in the desired state (ignoreScope: remove)';
        const name = displayName(facts.pending, ignore.kind, ignore.slug);
        actions.push(ignoreAction(site, 'unignore', ignore, name, reason));
      }
    }
  }
  const after = { desired, live, unignored, flagged: flaggedKinds(facts.ignores) };
  return { actions, notes, unmanaged, after };
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
  const groups = new Map<string, { ignore: LiveIgnore; sites: number[] }>();
  for (const ignore of unmanaged) {
    const key = `${ignore.origin}\u0000${ignore.kind}\u0000${ignore.slug}`;
    const group = groups.get(key);
    // Sites come in ascending order: a repeat of the same site is the last one listed.
    if (!group) groups.set(key, { ignore, sites: [ignore.siteId] });
    else if (group.sites.at(-1) !== ignore.siteId) group.sites.push(ignore.siteId);
  }
  for (const { ignore, sites } of groups.values()) {
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

/** Whether `update` (whose item key is `key`) stays hidden by an ignore once the plan has run. */
export function staysIgnored(after: IgnoresAfter, update: PendingUpdate, key: string): boolean {
  if (update.kind === 'translation') return false;
  if (after.desired.has(key) || after.flagged.has(update.kind)) return true;
  const ignores = after.live.get(key);
  if (!ignores) return false;
  // An unignored per-site entry is gone after the plan; every other live ignore stays.
  const gone = after.unignored.has(key);
  return ignores.some(
    (ignore) =>
      !(gone && ignore.origin === 'site') &&
      (ignore.versions === 'all' || ignore.versions.includes(update.to)),
  );
}
