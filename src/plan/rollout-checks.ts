import type { DesiredState, LiveState, Plan, RolloutState } from '../types.js';
import { waveClock } from './rollout-clock.js';
import { compileSelection } from './select.js';
import { assignWaves, REMAINING_WAVE } from './waves.js';

export interface WaveCheck {
  wave: string;
  siteIds: number[];
}

/**
 * The health checks a plan needs before it can decide its wave gates (blockedWaves), on
 * connected, managed sites:
 * - the sites of a wave another wave starts `after`, once its `healthy_for` has passed;
 * - the sites a wave's last check left unhealthy (do they still fail?);
 * - with `rollout.health`, the sites of a wave some later wave follows that has no record at
 *   all (a lost or older state file): whatever health it was left in is unknown, so it is
 *   checked rather than assumed.
 */
export function healthChecksNeeded(
  desired: DesiredState,
  live: Pick<LiveState, 'sites'>,
  state: RolloutState,
  now: Date,
): WaveCheck[] {
  const wholeWaves = new Set<string>();
  for (const wave of desired.waves) {
    const clock = wave.after && waveClock(state.waves[wave.after.wave]);
    if (clock && now.getTime() - Date.parse(clock.at) >= wave.after!.healthyFor.ms) {
      wholeWaves.add(wave.after!.wave);
    }
  }
  const waves = assignWaves(desired.waves);
  const managed = compileSelection(desired.sites);
  const checks = new Map<string, Set<number>>();
  const add = (wave: string, id: number) => {
    const ids = checks.get(wave) ?? new Set<number>();
    ids.add(id);
    checks.set(wave, ids);
  };
  const connected: Array<{ id: number; wave: string | undefined }> = [];
  let lastRank = -1;
  for (const site of live.sites) {
    if (site.status !== 'connected' || !managed(site)) continue;
    const wave = waves.waveOf(site);
    connected.push({ id: site.id, wave });
    lastRank = Math.max(lastRank, waves.rank(wave));
  }
  if (desired.health !== undefined) {
    for (const wave of desired.waves)
      if (!state.waves[wave.name] && waves.rank(wave.name) < lastRank) wholeWaves.add(wave.name);
  }
  for (const { id, wave } of connected) if (wave !== undefined && wholeWaves.has(wave)) add(wave, id);
  const connectedIds = new Set(connected.map((site) => site.id));
  for (const [wave, record] of Object.entries(state.waves)) {
    for (const site of record.unhealthy) if (connectedIds.has(site.site_id)) add(wave, site.site_id);
    // Every recorded unhealthy site is gone or offline: an empty check clears the record.
    if (record.unhealthy.length > 0 && !checks.has(wave)) checks.set(wave, new Set());
  }
  return [...checks]
    .map(([wave, ids]) => ({ wave, siteIds: [...ids].sort((a, b) => a - b) }))
    .sort((a, b) => (a.wave < b.wave ? -1 : a.wave > b.wave ? 1 : 0));
}

/**
 * The waves another wave starts `after` that a plan of the whole fleet shows with nothing left
 * to run: no update action, nothing waiting, no managed site in them unreadable or offline with
 * updates pending. A plan of some sites only (`--target`) shows no wave done.
 */
export function wavesDone(
  desired: DesiredState,
  live: Pick<LiveState, 'sites' | 'pending' | 'unreadable'>,
  plan: Pick<Plan, 'actions' | 'notes'>,
  complete: boolean,
): string[] {
  const gating = new Set(desired.waves.flatMap((wave) => (wave.after ? [wave.after.wave] : [])));
  if (!complete || gating.size === 0) return [];
  const waves = assignWaves(desired.waves);
  const managed = compileSelection(desired.sites);
  const waveOfSite = new Map<number, string | undefined>();
  for (const site of live.sites) if (managed(site)) waveOfSite.set(site.id, waves.waveOf(site));
  const busy = new Set<string | undefined>();
  for (const action of plan.actions) if (action.op === 'update') busy.add(action.wave);
  for (const note of plan.notes)
    if (note.kind === 'waiting') for (const id of note.site_ids ?? []) busy.add(waveOfSite.get(id));
  for (const unreadable of live.unreadable) busy.add(waveOfSite.get(unreadable.siteId));
  const pendingSites = new Set(live.pending.map((update) => update.siteId));
  for (const site of live.sites)
    if (site.status !== 'connected' && pendingSites.has(site.id)) busy.add(waveOfSite.get(site.id));
  return [...gating].filter((wave) => wave !== REMAINING_WAVE && !busy.has(wave)).sort();
}
