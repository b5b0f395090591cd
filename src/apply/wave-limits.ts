import { REMAINING_WAVE } from '../plan/index.js';
import type { DesiredState } from '../types.js';

/**
 * Failure thresholds per wave. Waves named in the desired state use their `maxFailures`; the
 * implicit last wave and plans without waves have no threshold (nothing comes after them). A
 * named wave the caller cannot look up (a saved plan applied without its config at hand)
 * stops at its first failure: the safe reading of an unknown threshold.
 */
export function waveLimits(
  desired: Pick<DesiredState, 'waves'> | undefined,
): (wave: string | undefined) => number {
  const limits = new Map((desired?.waves ?? []).map((wave) => [wave.name, wave.maxFailures]));
  return (wave) => {
    if (wave === undefined || wave === REMAINING_WAVE) return Number.POSITIVE_INFINITY;
    return limits.get(wave) ?? 0;
  };
}
