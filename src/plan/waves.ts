/**
 * Rollout waves. An update belongs to the first wave whose selection matches its site; when
 * waves are configured, sites no wave matches form a final implicit wave `(remaining)`.
 * Without waves, updates carry no wave at all.
 */
import type { Action, Site, Wave } from '../types.js';
import { compileSelection } from './select.js';

export const REMAINING_WAVE = '(remaining)';

export interface WaveAssignment {
  waveOf(site: Site): string | undefined;
  /** Position of a wave name in rollout order (the implicit wave last). */
  rank(wave: string | undefined): number;
}

export function assignWaves(waves: readonly Wave[]): WaveAssignment {
  const compiled = waves.map((wave) => ({ name: wave.name, selects: compileSelection(wave.selection) }));
  // Asked inside the action sort: a name → position map, not a search of the list.
  const order = new Map([...waves.map((wave) => wave.name), REMAINING_WAVE].map((name, i) => [name, i]));
  return {
    // Asked once per site (createPlan): nothing to remember, and no callback per site.
    waveOf(site) {
      if (compiled.length === 0) return undefined;
      for (let i = 0; i < compiled.length; i++) {
        const candidate = compiled[i] as (typeof compiled)[number];
        if (candidate.selects(site)) return candidate.name;
      }
      return REMAINING_WAVE;
    },
    rank(wave) {
      return wave === undefined ? 0 : (order.get(wave) ?? -1);
    },
  };
}

/**
 * The failure threshold of every named wave that holds an update action, by wave name;
 * undefined when there is none (the plan then carries no `wave_limits`).
 */
export function planWaveLimits(
  waves: readonly Wave[],
  actions: readonly Action[],
): Record<string, number> | undefined {
  const used = new Set<string>();
  for (const action of actions)
    if (action.wave !== undefined && action.wave !== REMAINING_WAVE) used.add(action.wave);
  if (used.size === 0) return undefined;
  const limits: Record<string, number> = {};
  for (const wave of waves) if (used.has(wave.name)) limits[wave.name] = wave.maxFailures;
  return limits;
}
