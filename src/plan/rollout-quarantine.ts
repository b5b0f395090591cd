/**
 * Quarantines: a target version whose update a wave's health check halted the rollout after is
 * held on every site, so the next run does not spread what broke the first ones. Pure: the
 * engine records them (from an apply's result) and the planner holds them.
 *
 * Lifecycle, in the rollout state: recorded (the record holds the version) → adopted (a plan
 * saw the desired state hold the version itself, `holds[].versions`; from then on that reviewed
 * hold decides) → released (a plan saw the adopted hold gone: the record is dropped). A record
 * not yet adopted is never dropped: a lost pull request keeps the version held, never frees it.
 */
import type {
  Action,
  ActionOutcome,
  ApplyResult,
  DesiredState,
  PendingUpdate,
  PlanQuarantine,
  PlanRollout,
  QuarantineRecord,
  RolloutState,
  UnhealthySite,
} from '../types.js';
import { compileGlob } from './glob.js';
import { describeItem } from './reasons.js';
import { versionKey } from './rollout-gates.js';
import { mergeQuarantines } from './rollout-quarantine-file.js';

/** A quarantine an apply found: the version key and its record. */
export interface FoundQuarantine {
  key: string;
  record: QuarantineRecord;
}

/**
 * The versions an apply's halting health check blames: on each unhealthy site of a wave that
 * stopped the rollout, every update the wave ran there (one of them broke it; which one the
 * check cannot tell, so each is held: the safe side).
 */
export function quarantinesOfApply(
  result: Pick<ApplyResult, 'health' | 'outcomes'>,
  now: Date,
): FoundQuarantine[] {
  const found = new Map<string, QuarantineRecord>();
  for (const report of result.health ?? []) {
    if (!report.stopped) continue;
    const unhealthy = new Map(report.unhealthy.map((site) => [site.site_id, site]));
    for (const outcome of result.outcomes) {
      const site = blamed(outcome, report.wave, unhealthy);
      if (!site) continue;
      const key = versionKey({ ...outcome.action, to: outcome.action.to ?? '' });
      const record = found.get(key) ?? { at: now.toISOString(), sites: [] };
      if (report.wave !== undefined) record.wave = report.wave;
      const { after: _moves, ...repair } = site;
      record.sites.push(repair);
      found.set(key, record);
    }
  }
  return [...found].map(([key, record]) => ({ key, record }));
}

/**
 * The unhealthy site an outcome is blamed for: an update of the halting wave the site lists in
 * `after` (the updates done there, and the ones WordPress rolled back, which failed); a site
 * without `after` blames every update done there.
 */
function blamed(
  outcome: ActionOutcome,
  wave: string | undefined,
  unhealthy: ReadonlyMap<number, UnhealthySite>,
): UnhealthySite | undefined {
  const { action } = outcome;
  if (action.op !== 'update' || !action.to || action.wave !== wave) return undefined;
  const site = unhealthy.get(action.site_id);
  if (!site) return undefined;
  if (site.after === undefined) return outcome.status === 'done' ? site : undefined;
  return site.after.includes(describeMove(action)) ? site : undefined;
}

/** How an update shows in an unhealthy site's `after`: `plugin akismet/akismet.php 5.3.6 → 5.3.7`. */
export function describeMove(action: Action): string {
  const item = action.kind === 'core' ? 'core' : `${action.kind} ${action.slug}`;
  return `${item} ${action.from ?? '?'} → ${action.to || '?'}`;
}

/** The state with these quarantines recorded (merged into any record of the same version). */
export function recordQuarantines(state: RolloutState, found: readonly FoundQuarantine[]): RolloutState {
  if (found.length === 0) return state;
  const quarantines = { ...(state.quarantines ?? {}) };
  for (const { key, record } of found) {
    const known = quarantines[key];
    // The new record is not adopted, so neither is the merge: the version broke sites again.
    quarantines[key] = known ? mergeQuarantines(known, record) : record;
  }
  return { ...state, quarantines };
}

/** Whether the desired state holds `kind slug` at `version` on every site it manages. */
export function compileDesiredQuarantines(desired: DesiredState): (key: string) => boolean {
  const holds = desired.holds
    .filter((hold) => hold.versions !== undefined)
    .map((hold) => ({ hold, slug: compileGlob(hold.slug) }));
  return (key) => {
    const [kind, slug, version] = splitKey(key);
    return holds.some(
      ({ hold, slug: matches }) => hold.kind === kind && matches(slug) && hold.versions!.includes(version),
    );
  };
}

/**
 * The state after a plan: records the desired state now holds are adopted; adopted records it
 * no longer holds are released (dropped). Unadopted records stay whatever the desired state says.
 */
export function adoptQuarantines(state: RolloutState, desired: DesiredState, now: Date): RolloutState {
  if (!state.quarantines) return state;
  const held = compileDesiredQuarantines(desired);
  const quarantines: Record<string, QuarantineRecord> = {};
  for (const [key, record] of Object.entries(state.quarantines)) {
    const inDesired = held(key);
    if (record.adopted_at !== undefined && !inDesired) continue;
    quarantines[key] =
      inDesired && record.adopted_at === undefined ? { ...record, adopted_at: now.toISOString() } : record;
  }
  const { quarantines: _old, ...rest } = state;
  return Object.keys(quarantines).length === 0 ? rest : { ...rest, quarantines };
}

/** `kind slug version`: slugs hold no spaces (the dashboard's slugs are paths and names). */
export function splitKey(key: string): [kind: string, slug: string, version: string] {
  const first = key.indexOf(' ');
  const last = key.lastIndexOf(' ');
  return [key.slice(0, first), key.slice(first + 1, last), key.slice(last + 1)];
}

/** What the planner asks per update, and what the plan shows. */
export interface QuarantineGate {
  /** The `held` note's message when `update`'s target is quarantined by the rollout state. */
  heldReason(update: PendingUpdate): string | undefined;
  /** Counts a held update (by its site) for the plan's list. */
  held(update: PendingUpdate): void;
  /** The plan's `quarantines`, by key; empty when none. */
  list(): PlanQuarantine[];
}

/**
 * The slugs the records name, to answer "not quarantined" for any other item without building
 * a key; undefined (every update is looked up by its key) when a key has more than two spaces,
 * since its slug is then not certain (a version holding a space).
 */
function slugsOfRecords(records: Readonly<Record<string, QuarantineRecord>>): Set<string> | undefined {
  const slugs = new Set<string>();
  for (const key of Object.keys(records)) {
    const [kind, slug, version] = splitKey(key);
    if (`${kind} ${slug} ${version}` !== key || slug.includes(' ')) return undefined;
    slugs.add(slug);
  }
  return slugs;
}

export function compileQuarantineGate(
  desired: DesiredState,
  rollout: PlanRollout | undefined,
): QuarantineGate {
  const records = rollout?.state.quarantines ?? {};
  const inDesired = compileDesiredQuarantines(desired);
  const held = new Map<string, Set<number>>();
  const reasons = new Map<string, string>();
  const mayHold = slugsOfRecords(records);
  return {
    heldReason(update) {
      // Most updates are of an item no record names: answered without building its key.
      if (mayHold !== undefined && !mayHold.has(update.slug)) return undefined;
      const key = versionKey(update);
      const record = records[key];
      // Adopted and still in the desired state: the reviewed hold says it (its own `held` note).
      if (!record || (record.adopted_at !== undefined && inDesired(key))) return undefined;
      // Adopted, then the hold was removed: released (the plan's record drops it).
      if (record.adopted_at !== undefined) return undefined;
      let reason = reasons.get(key);
      if (reason === undefined) {
        const where = record.wave === undefined ? 'the health check' : `wave "${record.wave}"'s health check`;
        reason = `${describeItem(update)} update to ${update.to} is quarantined: ${where} found ${record.sites.length} site(s) unhealthy after it (${record.at}); the rollout state holds it until a hold of this version in the desired state takes over`;
        reasons.set(key, reason);
      }
      return reason;
    },
    held(update) {
      const key = versionKey(update);
      const sites = held.get(key) ?? new Set<number>();
      sites.add(update.siteId);
      held.set(key, sites);
    },
    list() {
      return Object.keys(records)
        .sort()
        .flatMap((key): PlanQuarantine[] => {
          const record = records[key]!;
          const desired = inDesired(key);
          if (record.adopted_at !== undefined && !desired) return [];
          const [kind, slug, version] = splitKey(key);
          const entry: PlanQuarantine = {
            kind: kind as PlanQuarantine['kind'],
            slug,
            version,
            since: record.at,
            repair: record.sites,
            held_sites: held.get(key)?.size ?? 0,
            in_desired_state: desired,
          };
          if (record.wave !== undefined) entry.wave = record.wave;
          return [entry];
        });
    },
  };
}
