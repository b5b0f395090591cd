import type { DesiredState, LiveState, RolloutState } from '../types.js';
import { compileSelection } from './select.js';
import { assignWaves } from './waves.js';

export interface WaveCheck {
  wave: string;
  siteIds: number[];
}

/**
 * The health checks a plan needs before it can decide its wave gates (blockedWaves): the sites
 * of a wave another wave starts `after`, once its `healthy_for` has passed; and the sites a
 * wave's last apply left unhealthy (do they still fail?). Connected, managed sites only.
 */
export function healthChecksNeeded(
  desired: DesiredState,
  live: Pick<LiveState, 'sites'>,
  state: RolloutState,
  now: Date,
): WaveCheck[] {
  const wholeWaves = new Set<string>();
  for (const wave of desired.waves) {
    const record = wave.after && state.waves[wave.after.wave];
    if (record && now.getTime() - Date.parse(record.updated_at) >= wave.after!.healthyFor.ms) {
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
  const connected = new Set<number>();
  for (const site of live.sites) {
    if (site.status !== 'connected' || !managed(site)) continue;
    connected.add(site.id);
    const wave = waves.waveOf(site);
    if (wave !== undefined && wholeWaves.has(wave)) add(wave, site.id);
  }
  for (const [wave, record] of Object.entries(state.waves)) {
    for (const site of record.unhealthy) if (connected.has(site.site_id)) add(wave, site.site_id);
    // Every recorded unhealthy site is gone or offline: an empty check clears the record.
    if (record.unhealthy.length > 0 && !checks.has(wave)) checks.set(wave, new Set());
  }
  return [...checks]
    .map(([wave, ids]) => ({ wave, siteIds: [...ids].sort((a, b) => a - b) }))
    .sort((a, b) => (a.wave < b.wave ? -1 : a.wave > b.wave ? 1 : 0));
}
