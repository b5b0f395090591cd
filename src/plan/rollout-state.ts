/**
 * The rollout state's transitions: what a plan's read, a plan-time health check and an apply
 * add to it. Every unknown time counts as now (never as long ago), so a lost or older state
 * file can delay a rollout but never speed it up. The text of the file: rollout-state-file.ts.
 */
import type { LiveState, RolloutState, UnhealthySite, WaveRecord } from '../types.js';
import { waveClock } from './rollout-clock.js';
import { versionKey } from './rollout-gates.js';

export { waveClock } from './rollout-clock.js';
export {
  emptyRolloutState,
  mergeWaveRecords,
  parseRolloutState,
  ROLLOUT_STATE_FORMAT,
  type RolloutStateProblem,
  serialiseRolloutState,
} from './rollout-state-file.js';

/**
 * The state after a plan's read: every target version pending on some site keeps its first-seen
 * time, or gets `now`; versions no site has pending any more are dropped (the file stays small;
 * one that comes back starts its soak again, the safe side).
 */
export function observeVersions(
  state: RolloutState,
  live: Pick<LiveState, 'pending'>,
  now: Date,
  /** False when the read covered only some sites (`--target`): nothing is dropped then. */
  complete = true,
): RolloutState {
  const first_seen: Record<string, string> = complete ? {} : { ...state.first_seen };
  const at = now.toISOString();
  for (const update of live.pending) {
    const key = versionKey(update);
    if (first_seen[key] === undefined) first_seen[key] = state.first_seen[key] ?? at;
  }
  return { ...state, first_seen };
}

/**
 * The state after plan-time health checks: a wave found unhealthy records the sites and the
 * time (its `healthy_for` counts again from there); one found healthy clears its sites and
 * keeps the time.
 */
export function recordHealthChecks(
  state: RolloutState,
  health: Record<string, UnhealthySite[]>,
  now: Date,
): RolloutState {
  const waves: Record<string, WaveRecord> = { ...state.waves };
  for (const [name, found] of Object.entries(health)) {
    const record = waves[name] ?? { unhealthy: [] };
    if (found.length === 0) {
      if (record.unhealthy.length > 0) waves[name] = healed(record);
      continue;
    }
    // The update that preceded each site's trouble, from the apply that recorded it.
    const after = new Map(record.unhealthy.map((site) => [site.site_id, site.after]));
    const unhealthy = found.map((site) => {
      const moves = site.after ?? after.get(site.site_id);
      return moves === undefined ? site : { ...site, after: moves };
    });
    const at = now.toISOString();
    waves[name] = { ...record, unhealthy, unhealthy_at: at, unhealthy_since: record.unhealthy_since ?? at };
  }
  return { ...state, waves };
}

/**
 * The state after a plan: each wave another wave starts `after`, seen with nothing left to run
 * and no record of when it last ran (a lost or older file, or a wave that never had updates),
 * is recorded as first seen done now: its `healthy_for` starts here.
 */
export function recordDoneWaves(state: RolloutState, done: readonly string[], now: Date): RolloutState {
  const unrecorded = done.filter((name) => waveClock(state.waves[name]) === undefined);
  if (unrecorded.length === 0) return state;
  const waves = { ...state.waves };
  for (const name of unrecorded)
    waves[name] = { ...(waves[name] ?? { unhealthy: [] }), done_seen_at: now.toISOString() };
  return { ...state, waves };
}

/** The state after an apply: each wave that ran updates records when, and what its health check found. */
export function recordWaves(
  state: RolloutState,
  applied: ReadonlyArray<{ wave: string; unhealthy: UnhealthySite[] }>,
  now: Date,
): RolloutState {
  const waves = { ...state.waves };
  const at = now.toISOString();
  for (const { wave, unhealthy } of applied) {
    const before = waves[wave];
    const record: WaveRecord = { ...(before ? healed(before) : {}), updated_at: at, unhealthy };
    if (unhealthy.length > 0) {
      record.unhealthy_at = at;
      record.unhealthy_since = before?.unhealthy_since ?? at;
    }
    waves[wave] = record;
  }
  return { ...state, waves };
}

/** A record whose sites a check found healthy: no sites, no unhealthy spell (its time stays). */
function healed(record: WaveRecord): WaveRecord {
  const { unhealthy_since: _spell, ...rest } = record;
  return { ...rest, unhealthy: [] };
}
