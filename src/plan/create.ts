/**
 * createPlan: desired state + live state → Plan. Pure and synchronous: no I/O, no clock (the
 * caller passes `now`), no randomness; the same inputs give the same bytes and the same id.
 *
 * Only sites selected by `desired.sites` (and by `targetSiteIds` when given) get actions.
 * Sites the dashboard could not read, and sites it reports offline (disconnected or suspended,
 * whose stored state may be stale), are noted and get nothing else: an unknown state never
 * becomes an unignore. Ordering is stated in order.ts.
 */

import { SvcError } from '../errors.js';
import { publicUrl } from '../public-url.js';
import type {
  Action,
  Advisory,
  DesiredState,
  LiveIgnore,
  LiveState,
  Plan,
  PlanRollout,
  PlanSecurity,
  Site,
  Wave,
} from '../types.js';
import { refuseAmbiguousDomains } from './ambiguous-domains.js';
import { judgeApproval } from './approval.js';
import { brokenBySite, withholdBroken } from './broken-ignores.js';
import { compileDesiredIgnores } from './desired-ignores.js';
import { fingerprintOfFacts } from './fingerprint.js';
import { hiddenUpdates } from './hidden-updates.js';
import { planSiteIgnores, undesiredIgnoreNotes } from './ignores.js';
import { createInstalledJudge, type InstalledJudge } from './installed-vulnerable.js';
import { factsBySite, indexUnreadable, type LiveSiteFacts } from './live-index.js';
import { createNoteBook, type NoteBook } from './notes.js';
import { planGates } from './plan-gates.js';
import { plannedPlanId } from './plan-id.js';
import { compileRules } from './policies.js';
import { describeItem } from './reasons.js';
import { blockedWaves, compileUpdateGates, rolloutHalt } from './rollout-gates.js';
import { compileQuarantineGate } from './rollout-quarantine.js';
import { scopeNotes } from './scope-notes.js';
import { createSecurityIndex } from './security.js';
import { createSecurityBook, type SecurityBook } from './security-section.js';
import { compileSelection } from './select.js';
import { planSelectors, selectorNotes } from './selectors.js';
import { summarise } from './summary.js';
import { planSiteUpdates, type SecurityFinding, type SiteSecurityContext } from './updates.js';
import { assignWaves, planWaveLimits, REMAINING_WAVE } from './waves.js';

export interface PlanOptions {
  now: Date;
  lifetimeMinutes: number;
  /** Restrict the plan to these site ids (the CLI's --target), on top of `desired.sites`. */
  targetSiteIds?: number[];
  /**
   * The recorded rollout state and plan-time health checks (windows, soak times and `after`
   * gates decide with them; without them, versions count as first seen now and waves that
   * start `after` another wait for its health check).
   */
  rollout?: PlanRollout;
  /**
   * The variable notes name for the REST API key: SVC_TOKEN by default, the tool server's own
   * under --namespace (the plan is pure: it is told the name, it does not look it up).
   */
  tokenVariable?: string;
  /**
   * The advisories of the vulnerability feed the desired state names (`security`), read by the
   * caller: with them, security updates skip the gates `security.bypass` names and the plan has
   * a `security` section. Ignored when the desired state names no feed.
   */
  security?: { advisories: readonly Advisory[]; feed: PlanSecurity['feed'] };
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

/**
 * Offline sites, one note per status (every site in it listed), saying how many changes wait
 * for those sites to come back.
 */
function offlineNotes(
  offline: ReadonlyMap<Site['status'], { sites: Site[]; withheld: number }>,
  book: NoteBook,
) {
  for (const [status, { sites, withheld }] of offline) {
    const waiting =
      withheld === 0
        ? 'nothing would change'
        : `${withheld === 1 ? '1 change was' : `${withheld} changes were`} not planned`;
    const message = `${status}: ${waiting}; plan again once connected`;
    book.addAbout({ kind: 'offline-site', message }, sites);
  }
}

/** A site's actions, each list in action order. */
interface SiteActions {
  ignores: Action[];
  unignores: Action[];
  updates: Action[];
}

/** A site whose updates wait for the fleet-wide verdict on its wave. */
interface DeferredSite {
  facts: LiveSiteFacts;
  actions: SiteActions;
  wave: string;
}

/**
 * Every wave with updates to run: the most a wave can be held back by the waves before it
 * (blockedWaves holds back no fewer waves when more have updates), so a wave outside its
 * verdict starts whatever the fleet holds.
 */
function everyWaveActive(waves: readonly Wave[]): Map<string, number> {
  return new Map([...waves.map((wave) => wave.name), REMAINING_WAVE].map((name) => [name, 1]));
}

export function createPlan(desired: DesiredState, live: LiveState, options: PlanOptions): Plan {
  checkOptions(options);
  refuseAmbiguousDomains(desired, live.sites);
  const unreadable = indexUnreadable(live.unreadable);
  const broken = brokenBySite(live);
  const managed = compileSelection(desired.sites);
  const targets = options.targetSiteIds ? new Set(options.targetSiteIds) : undefined;
  const inScope = (site: Site): boolean => managed(site) && (!targets || targets.has(site.id));
  const desiredIgnoresOf = compileDesiredIgnores(desired.ignores);
  const rules = compileRules(desired.policies, desired.holds);
  const waves = assignWaves(desired.waves);
  const gates = compileUpdateGates(desired, options.rollout, options.now);
  const quarantine = compileQuarantineGate(desired, options.rollout);
  const tokenVariable = options.tokenVariable ?? 'SVC_TOKEN';
  const context = { scope: desired.ignoreScope, capabilities: live.capabilities, tokenVariable };
  const book = createNoteBook();
  const security = securityContext(desired, live, options);
  scopeNotes(desired, live, unreadable, inScope, targets, book);
  selectorNotes(desired, live, book);

  // Sites ascending, each site's actions already in the stated order (kind, then slug), dealt
  // into one bucket per operation (updates per wave): joined, the buckets are the whole plan in
  // the stated order, without sorting the actions of the fleet at all.
  const ignores: Action[] = [];
  const unignores: Action[] = [];
  const updatesByWave: Action[][] = [];
  const fingerprints: Record<string, string> = {};
  const offline = new Map<Site['status'], { sites: Site[]; withheld: number }>();
  const unmanaged: LiveIgnore[] = [];
  const activeByWave = new Map<string, number>();
  // Ignores and unignores are dealt as each site is judged. So are its updates and fingerprint,
  // unless its wave may wait: whether a wave may start depends on the waves before it across
  // the whole fleet, so those sites keep their actions until every site was judged. A wave's
  // sites are all deferred or none, so each wave's bucket still fills in site order, and no
  // other site's outcome outlives its turn (a fleet's plan holds no second copy of itself).
  const mayWait = blockedWaves(desired.waves, options.rollout, options.now, everyWaveActive(desired.waves));
  const deferred: DeferredSite[] = [];
  // Security updates by action, until their wave's verdict says whether they run in this plan.
  const securityOf = new Map<Action, SecurityFinding>();
  // A readable site's fingerprint (the caller checked): its status is the listing's.
  const dealUpdates = (facts: LiveSiteFacts, site: SiteActions, wave: string | undefined) => {
    if (security) {
      for (const action of site.updates) {
        const finding = securityOf.get(action);
        if (finding) security.book.add(finding.update, finding.advisories, 'update', facts.site.id);
      }
    }
    fingerprints[facts.site.id] = fingerprintOfFacts(facts, facts.site.status, [
      site.ignores,
      site.unignores,
      site.updates,
    ]);
    if (site.updates.length === 0) return;
    const rank = waves.rank(wave);
    const bucket = updatesByWave[rank] ?? [];
    updatesByWave[rank] = bucket;
    for (const action of site.updates) bucket.push(action);
  };
  const hidden = hiddenUpdates(live, desired.policies);
  if (live.capabilities.siteFlags === 'unseen') {
    book.add({
      kind: 'flags-unseen',
      message: `the dashboard's site-wide flags (ignore every core, plugin or theme update of a site) cannot be read without a REST API key (${tokenVariable}): updates such a flag hides are not in this plan`,
    });
  }
  for (const facts of factsBySite(live)) {
    const { site } = facts;
    if (!inScope(site) || unreadable.has(site.id)) continue;
    const wave = waves.waveOf(site);
    const siteIgnores = planSiteIgnores(facts, desiredIgnoresOf(site), context);
    const siteRules = rules.siteRules(site);
    const siteUpdates = planSiteUpdates(
      facts,
      rules,
      siteRules,
      siteIgnores.after,
      wave,
      gates,
      quarantine,
      security,
    );
    withholdBroken(
      broken.get(site.id),
      site,
      [siteIgnores.ignores, siteIgnores.unignores, siteUpdates.actions],
      book,
    );
    const touchedCount =
      siteIgnores.ignores.length + siteIgnores.unignores.length + siteUpdates.actions.length;
    if (site.status !== 'connected') {
      const entry = offline.get(site.status) ?? { sites: [], withheld: 0 };
      entry.sites.push(site);
      entry.withheld += touchedCount;
      offline.set(site.status, entry);
      continue;
    }
    for (const note of siteIgnores.notes) book.add(note, site.id);
    hidden.note(site.id, siteRules.policies, siteIgnores.unignores, book);
    for (const note of siteUpdates.notes) book.add(note, site.id);
    for (const finding of siteUpdates.security) {
      if (finding.action) securityOf.set(finding.action, finding);
      else security?.book.add(finding.update, finding.advisories, finding.fix, site.id);
    }
    security?.installed?.site(site.id, facts.pending, facts.ignores, (note) => book.add(note, site.id));
    for (const ignore of siteIgnores.unmanaged) unmanaged.push(ignore);
    if (wave !== undefined) {
      const active = siteUpdates.actions.length + siteUpdates.waiting;
      if (active > 0) activeByWave.set(wave, (activeByWave.get(wave) ?? 0) + active);
    }
    if (touchedCount === 0) continue;
    for (const action of siteIgnores.ignores) ignores.push(action);
    for (const action of siteIgnores.unignores) unignores.push(action);
    const actions = {
      ignores: siteIgnores.ignores,
      unignores: siteIgnores.unignores,
      updates: siteUpdates.actions,
    };
    if (wave !== undefined && mayWait.has(wave)) deferred.push({ facts, actions, wave });
    else dealUpdates(facts, actions, wave);
  }
  const blocked = blockedWaves(desired.waves, options.rollout, options.now, activeByWave);
  for (const { facts, actions, wave } of deferred) {
    const waits = blocked.get(wave);
    if (waits === undefined) {
      dealUpdates(facts, actions, wave);
      continue;
    }
    for (const action of actions.updates) {
      const message = `${describeItem(action)} updates wait: wave "${wave}" ${waits}`;
      book.add({ kind: 'waiting', item: { kind: action.kind, slug: action.slug }, message }, facts.site.id);
      const finding = securityOf.get(action);
      if (finding && security) notPlannedInWave(finding, facts.site.id, security.book, book);
    }
    if (actions.ignores.length + actions.unignores.length > 0)
      dealUpdates(facts, { ...actions, updates: [] }, wave);
  }
  offlineNotes(offline, book);
  undesiredIgnoreNotes(unmanaged, context, book);
  const actions = ignores.concat(unignores, ...updatesByWave.filter(Boolean));

  const approval = security
    ? judgeSplit(actions, securityOf, desired)
    : judgeApproval(actions, desired.approval);
  for (const note of approval.notes) book.add(note);

  const withoutId: Omit<Plan, 'id'> = {
    format_version: 3,
    created_at: options.now.toISOString(),
    expires_at: new Date(options.now.getTime() + options.lifetimeMinutes * 60_000).toISOString(),
    dashboard: { url: publicUrl(live.dashboardUrl) },
    desired_digest: desired.digest,
    actions,
    fingerprints,
    notes: book.notes(),
    summary: summarise(actions),
    needs_approval: approval.needsApproval,
  };
  const limits = planWaveLimits(desired.waves, actions);
  if (limits) withoutId.wave_limits = limits;
  const planned = planGates(desired, gates.passed(), options.rollout, options.now, actions, live.sites);
  if (planned.length > 0) withoutId.gates = planned;
  const halt = rolloutHalt(desired.waves, options.rollout);
  if (halt) withoutId.rollout_halt = halt;
  const quarantines = quarantine.list();
  if (quarantines.length > 0) withoutId.quarantines = quarantines;
  if (security) withoutId.security = security.book.section();
  const selectors = planSelectors(desired, live);
  if (selectors) withoutId.selectors = selectors;
  return { ...withoutId, id: plannedPlanId(withoutId) };
}

interface PlanSecurityContext extends SiteSecurityContext {
  book: SecurityBook;
  /** With `security.installed`: the installed items without a pending update. */
  installed: InstalledJudge | undefined;
}

function securityContext(
  desired: DesiredState,
  live: LiveState,
  options: PlanOptions,
): PlanSecurityContext | undefined {
  if (!desired.security || !options.security) return undefined;
  const index = createSecurityIndex(options.security.advisories);
  const book = createSecurityBook(options.security.feed);
  const installed = desired.security.installed
    ? createInstalledJudge(live.installed, index, book)
    : undefined;
  return { index, rules: desired.security, book, installed };
}

/** A security update its wave holds back: the site stays vulnerable for now. */
function notPlannedInWave(finding: SecurityFinding, siteId: number, security: SecurityBook, book: NoteBook) {
  security.add(finding.update, finding.advisories, 'not-planned', siteId);
  const { update } = finding;
  const message = `${describeItem(update)} is on a vulnerable version; the fix is pending but not planned (see the security section)`;
  book.add({ kind: 'vulnerable', item: { kind: update.kind, slug: update.slug }, message }, siteId);
}

/** Security updates are judged by `security.approval`, every other update by `approval`. */
function judgeSplit(
  actions: readonly Action[],
  securityOf: ReadonlyMap<Action, SecurityFinding>,
  desired: DesiredState,
) {
  const routine = actions.filter((action) => !securityOf.has(action));
  const fixes = actions.filter((action) => securityOf.has(action));
  const first = judgeApproval(routine, desired.approval);
  const second = judgeApproval(fixes, desired.security!.approval, 'security.approval');
  return {
    needsApproval: first.needsApproval || second.needsApproval,
    notes: [...first.notes, ...second.notes],
  };
}
