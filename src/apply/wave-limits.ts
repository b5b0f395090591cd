import { REMAINING_WAVE } from '../plan/index.js';
import type { DesiredState, HealthRules, Plan } from '../types.js';

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

/**
 * The thresholds a plan carries (`wave_limits`), undefined for a plan without them (no update
 * in a named wave, or a plan made before plans carried them).
 */
export function planLimits(
  plan: Pick<Plan, 'wave_limits'>,
): ((wave: string | undefined) => number) | undefined {
  const limits = plan.wave_limits;
  if (limits === undefined) return undefined;
  return (wave) => {
    if (wave === undefined || wave === REMAINING_WAVE) return Number.POSITIVE_INFINITY;
    return Object.hasOwn(limits, wave) ? (limits[wave] as number) : 0;
  };
}

/**
 * The health step's rules: the desired state's `rollout.health`, each wave's `max_unhealthy`
 * overriding the shared one. Undefined without `rollout.health` (no checks) or without the
 * desired state (a saved plan applied without its config: nothing says what healthy means).
 */
export function waveHealthRules(
  desired: Pick<DesiredState, 'waves' | 'health'> | undefined,
): { rules: HealthRules; maxUnhealthy: (wave: string | undefined) => number } | undefined {
  const rules = desired?.health;
  if (!rules) return undefined;
  const limits = new Map((desired?.waves ?? []).map((wave) => [wave.name, wave.maxUnhealthy]));
  return {
    rules,
    maxUnhealthy: (wave) => (wave === undefined ? undefined : limits.get(wave)) ?? rules.maxUnhealthy,
  };
}

/** `Approved.health` of a desired state: absent (not undefined) without health rules. */
export function healthOf(desired: Pick<DesiredState, 'waves' | 'health'> | undefined) {
  const health = waveHealthRules(desired);
  return health === undefined ? {} : { health };
}
