/**
 * The gates a plan's updates passed, recorded in the plan (`gates`), and their judgement again at
 * another moment: apply asks before each wave it writes, so a window that closed since the plan,
 * or a clock behind the plan's, stops the wave instead of letting it through. Pure: the caller
 * passes the time.
 */

import { compileWindow } from '../schedule/index.js';
import type { Action, DesiredState, PlanGate, PlanRollout, Site } from '../types.js';
import { waveClock } from './rollout-clock.js';
import type { PassedGates } from './rollout-gates.js';
import { compileSelection } from './select.js';
import { assignWaves } from './waves.js';

export function planGates(
  desired: DesiredState,
  passed: ReadonlyMap<string | undefined, PassedGates>,
  rollout: PlanRollout | undefined,
  now: Date,
  actions: readonly Action[],
  sites: readonly Site[] = [],
): PlanGate[] {
  const sitesOf = waveSites(desired, sites);
  const waves = new Map(desired.waves.map((wave) => [wave.name, wave]));
  const seen = new Set<string | undefined>();
  const gates: PlanGate[] = [];
  for (const action of actions) {
    if (action.op !== 'update' || seen.has(action.wave)) continue;
    seen.add(action.wave);
    const gate: PlanGate = action.wave === undefined ? {} : { wave: action.wave };
    const entry = passed.get(action.wave);
    const windows: NonNullable<PlanGate['windows']> = [];
    for (const policy of entry?.policies ?? [])
      if (policy.window) windows.push({ of: `policy "${policy.name}"`, ...policy.window });
    const wave = action.wave === undefined ? undefined : waves.get(action.wave);
    if (wave?.window && entry?.windowed !== false)
      windows.push({ of: `wave "${wave.name}"`, ...wave.window });
    if (windows.length > 0) gate.windows = windows;
    if (entry?.soakEndedAt !== undefined) gate.soak_ends_at = new Date(entry.soakEndedAt).toISOString();
    if (wave?.after) {
      const clock = waveClock(rollout?.state.waves[wave.after.wave]);
      const from = clock ? Date.parse(clock.at) : now.getTime();
      gate.after = {
        wave: wave.after.wave,
        healthy_for: wave.after.healthyFor.text,
        opens_at: new Date(from + wave.after.healthyFor.ms).toISOString(),
        // Overridden health is not checked again at apply; otherwise the earlier wave's sites are.
        ...(rollout?.overrideHealth ? {} : { site_ids: sitesOf(wave.after.wave) }),
      };
    }
    if (Object.keys(gate).some((key) => key !== 'wave')) gates.push(gate);
  }
  return gates;
}

/** The connected, managed sites of a wave, ascending. */
function waveSites(desired: DesiredState, sites: readonly Site[]): (wave: string) => number[] {
  const waves = assignWaves(desired.waves);
  const managed = compileSelection(desired.sites);
  return (wave) =>
    sites
      .filter((site) => site.status === 'connected' && managed(site) && waves.waveOf(site) === wave)
      .map((site) => site.id)
      .sort((a, b) => a - b);
}

/** A recorded gate that is shut at `now`: why, in words every front end can show as they are. */
export interface ClosedGate {
  wave?: string;
  gate: 'window' | 'soak' | 'after';
  message: string;
  /** When it opens, if known (ISO). */
  opens_at?: string;
}

/** The first of `wave`'s recorded gates that is shut at `now`; undefined when all are open. */
export function closedGate(
  gates: readonly PlanGate[] | undefined,
  wave: string | undefined,
  now: Date,
): ClosedGate | undefined {
  const gate = gates?.find((entry) => entry.wave === wave);
  if (!gate) return undefined;
  const named = wave === undefined ? 'the updates' : `wave ${wave}`;
  const base = wave === undefined ? {} : { wave };
  for (const window of gate.windows ?? []) {
    const compiled = compileWindow({ schedule: window.schedule, timezone: window.timezone });
    if (compiled.isOpen(now)) continue;
    const opens = compiled.nextOpen(now);
    return {
      ...base,
      gate: 'window',
      message: `${named}: the window of ${window.of} (${compiled.describe()}) is closed at ${now.toISOString()}; next window opens at ${opens ? compiled.describeMoment(opens) : 'no time within a year'}`,
      ...(opens ? { opens_at: opens.toISOString() } : {}),
    };
  }
  if (gate.soak_ends_at !== undefined && Date.parse(gate.soak_ends_at) > now.getTime())
    return {
      ...base,
      gate: 'soak',
      message: `${named}: a soak time ends only at ${gate.soak_ends_at}`,
      opens_at: gate.soak_ends_at,
    };
  if (gate.after && Date.parse(gate.after.opens_at) > now.getTime())
    return {
      ...base,
      gate: 'after',
      message: `${named} starts only once wave ${gate.after.wave} has been healthy for ${gate.after.healthy_for}, at ${gate.after.opens_at}`,
      opens_at: gate.after.opens_at,
    };
  return undefined;
}
