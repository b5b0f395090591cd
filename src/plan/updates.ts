/**
 * Update decisions for one selected, readable site. In this order: an item that stays ignored
 * after the plan is never updated (silently: the dashboard hides it anyway); an update no
 * policy allows is left alone; a blocking hold gives a `held` note; everything else becomes an
 * `update` action. (Offline sites are withheld as a whole by createPlan.)
 * Translations share slugs across languages: one action per (kind, slug), the lowest move first.
 */
import type { Action, Advisory, PendingUpdate, PlanNote, SecurityRules, Site } from '../types.js';
import { type IgnoresAfter, staysIgnored } from './ignores.js';
import type { LiveSiteFacts } from './live-index.js';
import type { CompiledRules, HoldVerdict, PolicyVerdict, SiteRules } from './policies.js';
import { describeItem, sourceLabel } from './reasons.js';
import type { UpdateGates } from './rollout-gates.js';
import type { QuarantineGate } from './rollout-quarantine.js';
import { advisoryLabels, type SecurityIndex } from './security.js';

/** The advisories of a plan and how security updates are treated (desired `security`). */
export interface SiteSecurityContext {
  index: SecurityIndex;
  rules: SecurityRules;
}

/**
 * A pending update on a vulnerable version: planned as a security update (`update`, with its
 * action), or left vulnerable: no pending version fixes it (`no-fix`), or the fix is pending
 * but not planned (`not-planned`: ignored, held, waiting, or no policy allows it).
 */
export interface SecurityFinding {
  update: PendingUpdate;
  advisories: readonly Advisory[];
  fix: 'update' | 'no-fix' | 'not-planned';
  action?: Action;
}

export interface SiteUpdateOutcome {
  /** In action order (kind, then slug). */
  actions: Action[];
  /** About this site; createPlan merges them across sites, so they name no site themselves. */
  notes: Array<Omit<PlanNote, 'site_ids'>>;
  /** Allowed updates that wait (window, soak): each also has a `waiting` note. */
  waiting: number;
  /** Only with a security context. */
  security: SecurityFinding[];
}

// Keyed like vulnerableNotes below: per plan, by a verdict's advisory list.
const reasons = new WeakMap<readonly Advisory[], Map<string, string>>();

/** A security update's reason, one string per (advisories, policy verdict) in a fleet. */
function securityReason(fixed: readonly Advisory[], policyReason: string): string {
  let byPolicy = reasons.get(fixed);
  if (!byPolicy) {
    byPolicy = new Map();
    reasons.set(fixed, byPolicy);
  }
  let reason = byPolicy.get(policyReason);
  if (reason === undefined) {
    reason = `security fix of ${advisoryLabels(fixed)}; ${policyReason}`;
    byPolicy.set(policyReason, reason);
  }
  return reason;
}

// Keyed by a verdict's advisory list, which the security index makes once per distinct set of
// an item's advisories in one plan: the entries go when the plan's index does.
const vulnerableNotes = new WeakMap<readonly Advisory[], Map<string, Omit<PlanNote, 'site_ids'>>>();

/** One note object per (advisories, fix): a fleet repeats it on every site of the move. */
function vulnerableNote(finding: SecurityFinding): Omit<PlanNote, 'site_ids'> {
  let byFix = vulnerableNotes.get(finding.advisories);
  if (!byFix) {
    byFix = new Map();
    vulnerableNotes.set(finding.advisories, byFix);
  }
  let note = byFix.get(finding.fix);
  if (!note) {
    note = buildVulnerableNote(finding);
    byFix.set(finding.fix, note);
  }
  return note;
}

function buildVulnerableNote(finding: SecurityFinding): Omit<PlanNote, 'site_ids'> {
  const { update, fix } = finding;
  // One note per item and kind of finding, whatever the versions and advisories (which differ
  // site by site in a fleet): those are in the plan's security section, listed with the sites.
  const why =
    fix === 'no-fix'
      ? 'is on a vulnerable version that no pending update fixes'
      : 'is on a vulnerable version; the fix is pending but not planned';
  return {
    kind: 'vulnerable',
    item: { kind: update.kind, slug: update.slug },
    message: `${describeItem(update)} ${why} (see the security section)`,
  };
}

/**
 * The `held` note's message. It is shared by every site it says the same of, so it holds no
 * per-site detail: a plain hold names the item only, a pin the target beyond it (sites moving
 * to the same target share the note), never the version a site moves from.
 */
function heldMessage(update: PendingUpdate, { hold, pinned }: HoldVerdict): string {
  const where = `(${sourceLabel(hold.source)})${hold.reason ? `: ${hold.reason}` : ''}`;
  const item = describeItem(update);
  if (hold.versions !== undefined) return `${item} update to ${update.to} is held ${where}`;
  if (!pinned) return `${item} updates are held ${where}`;
  const target =
    update.to !== ''
      ? update.to
      : update.kind === 'translation'
        ? 'a new translation'
        : 'an unreported version';
  return `${item} update to ${target} is beyond the pin ${hold.maxVersion} ${where}`;
}

/**
 * One pending update per (kind, slug), in action order: the lowest move, so the choice does
 * not depend on the order the dashboard listed translations in. The index lists a site's
 * pending updates by kind, slug, then move: the lowest of each item is the first of its run.
 */
function lowestMoves(pending: readonly PendingUpdate[]): readonly PendingUpdate[] {
  // Most sites list one move per item: then the list is its own answer.
  let repeats = false;
  for (let i = 1; i < pending.length && !repeats; i++) repeats = sameItem(pending[i - 1]!, pending[i]!);
  if (!repeats) return pending;
  return pending.filter((update, i) => i === 0 || !sameItem(pending[i - 1]!, update));
}

function sameItem(a: PendingUpdate, b: PendingUpdate): boolean {
  return a.slug === b.slug && a.kind === b.kind;
}

function updateAction(
  site: Site,
  update: PendingUpdate,
  verdict: PolicyVerdict,
  wave: string | undefined,
  reason: string,
) {
  const { kind, slug, from, to } = update;
  const name = update.name !== '' ? update.name : slug;
  const risk = kind === 'core' || verdict.level === 'major' ? 'high' : 'medium';
  // Two fixed shapes, keys in code-unit order: canonical JSON (the id) writes them as built.
  const site_id = site.id;
  const site_url = site.url;
  const action: Action =
    wave === undefined
      ? { from, kind, name, op: 'update', reason, risk, site_id, site_url, slug, to }
      : { from, kind, name, op: 'update', reason, risk, site_id, site_url, slug, to, wave };
  return action;
}

export function planSiteUpdates(
  facts: LiveSiteFacts,
  rules: CompiledRules,
  siteRules: SiteRules,
  ignores: IgnoresAfter,
  wave: string | undefined,
  gates?: UpdateGates,
  quarantine?: QuarantineGate,
  security?: SiteSecurityContext,
): SiteUpdateOutcome {
  const { site } = facts;
  const actions: Action[] = [];
  const notes: SiteUpdateOutcome['notes'] = [];
  const findings: SecurityFinding[] = [];
  let waiting = 0;
  for (const update of lowestMoves(facts.pending)) {
    const judged = security?.index.judge(update);
    if (judged && judged.unfixed.length > 0)
      findings.push({ update, advisories: judged.unfixed, fix: 'no-fix' });
    const fixed = judged && judged.fixed.length > 0 ? judged.fixed : undefined;
    if (staysIgnored(ignores, update)) {
      if (fixed) findings.push({ update, advisories: fixed, fix: 'not-planned' });
      continue;
    }
    const verdict = rules.judge(siteRules, update);
    if (!verdict) {
      if (fixed) findings.push({ update, advisories: fixed, fix: 'not-planned' });
      continue;
    }
    if ('hold' in verdict) {
      if (verdict.hold.versions !== undefined) quarantine?.held(update);
      const item = { kind: update.kind, slug: update.slug };
      notes.push({ kind: 'held', item, message: heldMessage(update, verdict) });
      if (fixed) findings.push({ update, advisories: fixed, fix: 'not-planned' });
      continue;
    }
    // A quarantined version is held before any gate: no wave or window lets it through.
    const quarantined = quarantine?.heldReason(update);
    if (quarantined !== undefined) {
      quarantine!.held(update);
      notes.push({ kind: 'held', item: { kind: update.kind, slug: update.slug }, message: quarantined });
      if (fixed) findings.push({ update, advisories: fixed, fix: 'not-planned' });
      continue;
    }
    const bypass = fixed ? security?.rules.bypass : undefined;
    const wait = gates?.waitReason(update, verdict.policy, wave, bypass);
    if (wait !== undefined) {
      notes.push({ kind: 'waiting', item: { kind: update.kind, slug: update.slug }, message: wait });
      waiting += 1;
      if (fixed) findings.push({ update, advisories: fixed, fix: 'not-planned' });
      continue;
    }
    const reason = fixed ? securityReason(fixed, verdict.reason) : verdict.reason;
    const action = updateAction(site, update, verdict, wave, reason);
    actions.push(action);
    if (fixed) findings.push({ update, advisories: fixed, fix: 'update', action });
  }
  for (const finding of findings) if (finding.fix !== 'update') notes.push(vulnerableNote(finding));
  return { actions, notes, waiting, security: findings };
}
