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
import type { Memo } from './memo.js';
import { describeItem, displayName, sourceLabel } from './reasons.js';

const SURFACE_NAMES = { abilities: 'abilities API', rest: 'REST API' } as const;

export interface DesiredIgnore {
  kind: IgnorableKind;
  slug: string;
  source: SourceRef;
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
  /** Global ignores not in the desired state; reported once per item for the whole plan. */
  unmanagedGlobal: LiveIgnore[];
  after: IgnoresAfter;
}

export interface IgnoreContext {
  scope: IgnoreScope;
  capabilities: DashboardCapabilities;
  memo: Memo;
}

/** The reason of an `ignore` action; the common case is one shared string per rule. */
function ignoreReason(want: DesiredIgnore, have: readonly LiveIgnore[], memo: Memo): string {
  const label = sourceLabel(want.source);
  const partial = have.flatMap((ignore) => (ignore.versions === 'all' ? [] : ignore.versions));
  if (partial.length === 0)
    return memo(`ignore\u0000${label}`, () => `ignored by the desired state (${label})`);
  return `ignored by the desired state (${label}); live ignores only ${partial.join(', ')}`;
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
  return { op, site_id: site.id, site_url: site.url, kind, slug, name, risk: 'low', reason };
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
  const unmanagedGlobal: LiveIgnore[] = [];

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
    actions.push(ignoreAction(site, 'ignore', want, name, ignoreReason(want, have, context.memo)));
  }

  const unignored = new Set<string>();
  for (const [key, ignores] of live) {
    if (desired.has(key) || context.scope === 'keep') continue;
    for (const ignore of ignores) {
      const verdict = undesired(ignore, context);
      if (verdict === 'global') {
        unmanagedGlobal.push(ignore);
      } else if (verdict === 'unignore') {
        if (unignored.has(key)) continue;
        unignored.add(key);
        const reason = 'per-site ignore not in the desired state (ignoreScope: remove)';
        const name = displayName(facts.pending, ignore.kind, ignore.slug);
        actions.push(ignoreAction(site, 'unignore', ignore, name, reason));
      } else {
        const item = { kind: ignore.kind, slug: ignore.slug };
        notes.push({ kind: verdict, item, message: undesiredMessage(ignore, context) });
      }
    }
  }
  const after = { desired, live, unignored, flagged: flaggedKinds(facts.ignores) };
  return { actions, notes, unmanagedGlobal, after };
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
