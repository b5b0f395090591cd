/**
 * The rollout state file: when each pending target version was first seen, and each wave's last
 * apply with its health. Kept in Git beside the desired state, written so that it diffs line by
 * line: keys sorted, one version per line, two-space indents.
 */
import { compareCodeUnits, SvcError } from '../errors.js';
import type { LiveState, RolloutState, UnhealthySite, WaveRecord } from '../types.js';
import { versionKey } from './rollout-gates.js';

export const ROLLOUT_STATE_FORMAT = 1;

export function emptyRolloutState(): RolloutState {
  return { first_seen: {}, waves: {} };
}

/** Parses the file's text; anything unexpected is CONFIG_INVALID naming the file and the field. */
export function parseRolloutState(text: string, path: string): RolloutState {
  const fail = (what: string): never => {
    throw new SvcError('CONFIG_INVALID', `${path}: not a svc-gitops rollout state: ${what}`, {
      hint: 'restore it from Git history, or delete it: versions are then seen anew (their soak time starts again)',
    });
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return fail(`invalid JSON (${(error as Error).message})`);
  }
  if (!isRecord(data)) return fail('not an object');
  if (data.format !== ROLLOUT_STATE_FORMAT) return fail(`format must be ${ROLLOUT_STATE_FORMAT}`);
  const state = emptyRolloutState();
  const firstSeen = data.first_seen ?? {};
  if (!isRecord(firstSeen)) return fail('first_seen must be an object');
  for (const [key, value] of Object.entries(firstSeen)) {
    if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
      return fail(`first_seen["${key}"] is not a time`);
    state.first_seen[key] = value;
  }
  const waves = data.waves ?? {};
  if (!isRecord(waves)) return fail('waves must be an object');
  for (const [name, value] of Object.entries(waves)) {
    if (
      !isRecord(value) ||
      typeof value.updated_at !== 'string' ||
      Number.isNaN(Date.parse(value.updated_at))
    )
      return fail(`waves["${name}"].updated_at is not a time`);
    const unhealthy = value.unhealthy ?? [];
    if (!Array.isArray(unhealthy) || !unhealthy.every(isUnhealthySite))
      return fail(`waves["${name}"].unhealthy must list {site_id, site_url, problem}`);
    state.waves[name] = { updated_at: value.updated_at, unhealthy: unhealthy as UnhealthySite[] };
  }
  return state;
}

export function serialiseRolloutState(state: RolloutState): string {
  const sorted = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => compareCodeUnits(a, b)));
  const file = {
    format: ROLLOUT_STATE_FORMAT,
    first_seen: sorted(state.first_seen),
    waves: sorted(state.waves),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

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
  return { first_seen, waves: state.waves };
}

/** The state after plan-time health checks: a wave whose re-check found nothing unhealthy is healthy again. */
export function clearRecovered(state: RolloutState, health: Record<string, UnhealthySite[]>): RolloutState {
  const waves: Record<string, WaveRecord> = {};
  for (const [name, record] of Object.entries(state.waves)) {
    const rechecked = health[name];
    waves[name] =
      rechecked !== undefined && rechecked.length === 0 && record.unhealthy.length > 0
        ? { ...record, unhealthy: [] }
        : record;
  }
  return { first_seen: state.first_seen, waves };
}

/** The state after an apply: each wave that ran updates records when, and what its health check found. */
export function recordWaves(
  state: RolloutState,
  applied: ReadonlyArray<{ wave: string; unhealthy: UnhealthySite[] }>,
  now: Date,
): RolloutState {
  const waves = { ...state.waves };
  for (const { wave, unhealthy } of applied) waves[wave] = { updated_at: now.toISOString(), unhealthy };
  return { first_seen: state.first_seen, waves };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isUnhealthySite(value: unknown): boolean {
  return (
    isRecord(value) &&
    Number.isInteger(value.site_id) &&
    typeof value.site_url === 'string' &&
    typeof value.problem === 'string' &&
    (value.after === undefined ||
      (Array.isArray(value.after) && value.after.every((a) => typeof a === 'string')))
  );
}
