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
  LiveIgnore,
  PendingUpdate,
  PlanNote,
  SourceRef,
} from '../types.js';
import { itemKey, type LiveSiteFacts } from './live-index.js';
import { describeItem, displayName, type Memo, sourceLabel } from './reasons.js';

const SURFACE_NAMES = { abilities: 'abilities API', rest: 'REST API' } as const;

export interface DesiredIgnore {
  kind: IgnorableKind;
  slug: string;
  source: SourceRef;
}

export interface SiteIgnoreOutcome {
  actions: Action[];
  notes: PlanNote[];
  /** Global ignores not in the desired state; reported once per item for the whole plan. */
  unmanagedGlobal: LiveIgnore[];
  /** Whether a pending update stays hidden by an ignore once the plan has run. */
  ignoredAfter: (update: PendingUpdate) => boolean;
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

export function planSiteIgnores(
  facts: LiveSiteFacts,
  desired: ReadonlyMap<string, DesiredIgnore>,
  context: IgnoreContext,
): SiteIgnoreOutcome {
  const { site } = facts;
  const live = new Map<string, LiveIgnore[]>();
  for (const ignore of facts.ignores) {
    const key = itemKey(ignore.kind, ignore.slug);
    const entries = live.get(key);
    if (entries) entries.push(ignore);
    else live.set(key, [ignore]);
  }
  const outcome: SiteIgnoreOutcome = {
    actions: [],
    notes: [],
    unmanagedGlobal: [],
    ignoredAfter: () => false,
  };
  const action = (op: 'ignore' | 'unignore', kind: IgnorableKind, slug: string, reason: string): Action => ({
    op,
    site_id: site.id,
    site_url: site.url,
    kind,
    slug,
    name: displayName(facts.pending, kind, slug),
    risk: 'low',
    reason,
  });

  for (const [key, want] of desired) {
    const have = live.get(key) ?? [];
    if (have.some((ignore) => ignore.versions === 'all')) continue;
    if (!canIgnore(context.capabilities, want.kind)) {
      // No action apply could not perform; the item still counts as ignored for updates below.
      const item = { kind: want.kind, slug: want.slug };
      const message = cannotIgnoreMessage(want, context);
      outcome.notes.push({ kind: 'cannot-ignore', site_id: site.id, site_url: site.url, item, message });
      continue;
    }
    outcome.actions.push(action('ignore', want.kind, want.slug, ignoreReason(want, have, context.memo)));
  }

  const unignored = new Set<string>();
  for (const [key, ignores] of live) {
    if (desired.has(key) || context.scope === 'keep') continue;
    for (const ignore of ignores) {
      const verdict = undesired(ignore, context);
      if (verdict === 'global') {
        outcome.unmanagedGlobal.push(ignore);
      } else if (verdict === 'unignore') {
        if (unignored.has(key)) continue;
        unignored.add(key);
        const reason = 'per-site ignore not in the desired state (ignoreScope: remove)';
        outcome.actions.push(action('unignore', ignore.kind, ignore.slug, reason));
      } else {
        const item = { kind: ignore.kind, slug: ignore.slug };
        const message = undesiredMessage(ignore, context);
        outcome.notes.push({ kind: verdict, site_id: site.id, site_url: site.url, item, message });
      }
    }
  }

  const flaggedKinds = new Set(facts.ignores.filter((i) => i.origin === 'site-flag').map((i) => i.kind));
  outcome.ignoredAfter = (update) => {
    if (update.kind === 'translation') return false;
    const key = itemKey(update.kind, update.slug);
    if (desired.has(key) || flaggedKinds.has(update.kind)) return true;
    // An unignored per-site entry is gone after the plan; every other live ignore stays.
    const gone = unignored.has(key);
    return (live.get(key) ?? []).some(
      (ignore) =>
        !(gone && ignore.origin === 'site') &&
        (ignore.versions === 'all' || ignore.versions.includes(update.to)),
    );
  };
  return outcome;
}
