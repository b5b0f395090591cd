/**
 * createPlan: desired state + live state → Plan. Pure and synchronous: no I/O, no clock (the
 * caller passes `now`), no randomness; the same inputs give the same bytes and the same id.
 *
 * Only sites selected by `desired.sites` (and by `targetSiteIds` when given) get actions.
 * Sites the dashboard could not read, and sites it reports offline (disconnected or suspended,
 * whose stored state may be stale), get one note and nothing else: an unknown state never
 * becomes an unignore. Ordering is stated in order.ts.
 */
import { SvcError } from '../errors.js';
import type { DesiredState, LiveIgnore, LiveState, Plan, PlanNote, Site } from '../types.js';
import { judgeApproval } from './approval.js';
import { planId } from './canonical.js';
import { collectFingerprints } from './collect.js';
import { compileDesiredIgnores } from './desired-ignores.js';
import { planSiteIgnores } from './ignores.js';
import { indexLiveState } from './live-index.js';
import { compareActions, compareNotes } from './order.js';
import { compileRules } from './policies.js';
import { createMemo } from './reasons.js';
import { globalIgnoreNotes, scopeNotes } from './scope-notes.js';
import { compileSelection } from './select.js';
import { summarise } from './summary.js';
import { planSiteUpdates } from './updates.js';
import { assignWaves } from './waves.js';

export interface PlanOptions {
  now: Date;
  lifetimeMinutes: number;
  /** Restrict the plan to these site ids (the CLI's --target), on top of `desired.sites`. */
  targetSiteIds?: number[];
}

/** The dashboard's address as a plan may record it: no user info, query or fragment. */
export function publicDashboardUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/s, '');
  }
}

/** One note per offline site in scope, saying how many changes wait for it to come back. */
function offlineSiteNote(site: Site, withheld: number): PlanNote {
  const waiting =
    withheld === 0
      ? 'nothing would change'
      : `${withheld === 1 ? '1 change was' : `${withheld} changes were`} not planned`;
  const message = `the site is ${site.status}: ${waiting}; plan again once it is connected`;
  return { kind: 'offline-site', site_id: site.id, site_url: site.url, message };
}

function checkOptions(options: PlanOptions): void {
  if (Number.isNaN(options.now.getTime())) throw new SvcError('USAGE', 'plan time is not a valid date');
  if (!Number.isFinite(options.lifetimeMinutes) || options.lifetimeMinutes <= 0) {
    throw new SvcError(
      'USAGE',
      `plan lifetime must be a positive number of minutes, got ${options.lifetimeMinutes}`,
      {
        hint: 'set a plan lifetime of at least one minute',
      },
    );
  }
}

export function createPlan(desired: DesiredState, live: LiveState, options: PlanOptions): Plan {
  checkOptions(options);
  const index = indexLiveState(live);
  const managed = compileSelection(desired.sites);
  const targets = options.targetSiteIds ? new Set(options.targetSiteIds) : undefined;
  const inScope = (site: Site): boolean => managed(site) && (!targets || targets.has(site.id));
  const desiredIgnoresOf = compileDesiredIgnores(desired.ignores);
  const rules = compileRules(desired.policies, desired.holds);
  const waves = assignWaves(desired.waves);
  const memo = createMemo();
  const context = { scope: desired.ignoreScope, capabilities: live.capabilities, memo };

  const actions: Plan['actions'] = [];
  const notes: PlanNote[] = [...scopeNotes(desired, live, index, inScope, targets)];
  const unmanagedGlobal: LiveIgnore[] = [];
  for (const facts of [...index.sites.values()].sort((a, b) => a.site.id - b.site.id)) {
    if (!inScope(facts.site) || index.unreadable.has(facts.site.id)) continue;
    const ignores = planSiteIgnores(facts, desiredIgnoresOf(facts.site), context);
    const updates = planSiteUpdates(facts, rules, ignores.ignoredAfter, waves.waveOf);
    if (facts.site.status !== 'connected') {
      notes.push(offlineSiteNote(facts.site, ignores.actions.length + updates.actions.length));
      continue;
    }
    actions.push(...ignores.actions, ...updates.actions);
    notes.push(...ignores.notes, ...updates.notes);
    unmanagedGlobal.push(...ignores.unmanagedGlobal);
  }
  notes.push(...globalIgnoreNotes(unmanagedGlobal));
  actions.sort(compareActions(waves.rank));

  const approval = judgeApproval(actions, desired.approval);
  notes.push(...approval.notes);
  notes.sort(compareNotes);

  const withoutId: Omit<Plan, 'id'> = {
    format_version: 1,
    created_at: options.now.toISOString(),
    expires_at: new Date(options.now.getTime() + options.lifetimeMinutes * 60_000).toISOString(),
    dashboard: { url: publicDashboardUrl(live.dashboardUrl) },
    desired_digest: desired.digest,
    actions,
    fingerprints: collectFingerprints(index, actions),
    notes,
    summary: summarise(actions),
    needs_approval: approval.needsApproval,
  };
  return { ...withoutId, id: planId(withoutId) };
}
