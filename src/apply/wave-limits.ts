import { REMAINING_WAVE } from '../plan/index.js';
import type { Action, DesiredState, HealthPath, HealthRules, Plan } from '../types.js';
import type { HeldBack } from './held-back.js';
import { changeKey } from './keys.js';

/**
 * An approval's limits and hold-backs as data (plain objects a front end can serialise, keep
 * and hand back): per-wave limit maps read through `failureLimit` / `unhealthyLimit`, and the
 * held-back actions keyed by `changeKey`, read through `heldBackOf`.
 */

/** Failed updates each named wave may have; see `failureLimit` for the waves not listed. */
export type FailureLimits = Readonly<Record<string, number>>;

/** The health step's rules, and the waves whose `max_unhealthy` overrides the shared one. */
export interface HealthLimits {
  rules: HealthRules;
  maxUnhealthy: Readonly<Record<string, number>>;
  /** Wave → its own pages to check, in place of `rules.paths`. */
  paths?: Readonly<Record<string, HealthPath[]>>;
}

/** The pages checked after a wave's updates: the wave's own, else the shared ones. */
export function wavePages(health: HealthLimits, wave: string | undefined): HealthPath[] | undefined {
  return wave !== undefined && health.paths && Object.hasOwn(health.paths, wave)
    ? health.paths[wave]
    : health.rules.paths;
}

/** Actions an approval does not cover, by `changeKey`: reported with the status and code, never sent. */
export type HeldBackActions = Readonly<Record<string, HeldBack>>;

/**
 * The failure threshold of a wave. The implicit last wave and updates outside waves have none
 * (nothing comes after them). A named wave the limits do not list (a saved plan applied without
 * its config at hand) stops at its first failure: the safe reading of an unknown threshold.
 */
export function failureLimit(limits: FailureLimits, wave: string | undefined): number {
  if (wave === undefined || wave === REMAINING_WAVE) return Number.POSITIVE_INFINITY;
  return Object.hasOwn(limits, wave) ? (limits[wave] as number) : 0;
}

/** The unhealthy sites a wave may leave: its own `max_unhealthy`, else the shared one. */
export function unhealthyLimit(health: HealthLimits, wave: string | undefined): number {
  return wave !== undefined && Object.hasOwn(health.maxUnhealthy, wave)
    ? (health.maxUnhealthy[wave] as number)
    : health.rules.maxUnhealthy;
}

/** How `held` holds `action` back, if it does. */
export function heldBackOf(held: HeldBackActions | undefined): (action: Action) => HeldBack | undefined {
  if (held === undefined) return () => undefined;
  return (action) => {
    const key = changeKey(action);
    return Object.hasOwn(held, key) ? held[key] : undefined;
  };
}

/** The hold-backs a rule gives the actions of a plan, as data; undefined when it holds none. */
export function heldBackIn(
  actions: readonly Action[],
  rule: (action: Action) => HeldBack | undefined,
): HeldBackActions | undefined {
  const held: Record<string, HeldBack> = {};
  for (const action of actions) {
    const hold = rule(action);
    if (hold) held[changeKey(action)] = hold;
  }
  return Object.keys(held).length === 0 ? undefined : held;
}

/** Failure thresholds of the waves a desired state names (none without one). */
export function waveLimits(desired: Pick<DesiredState, 'waves'> | undefined): FailureLimits {
  return Object.fromEntries((desired?.waves ?? []).map((wave) => [wave.name, wave.maxFailures]));
}

/**
 * The thresholds a plan carries (`wave_limits`), undefined for a plan without them (no update
 * in a named wave, or a plan made before plans carried them).
 */
export function planLimits(plan: Pick<Plan, 'wave_limits'>): FailureLimits | undefined {
  return plan.wave_limits === undefined ? undefined : { ...plan.wave_limits };
}

/**
 * The health step's rules: the desired state's `rollout.health`, each wave's `max_unhealthy`
 * overriding the shared one. Undefined without `rollout.health` (no checks) or without the
 * desired state (a saved plan applied without its config: nothing says what healthy means).
 */
export function waveHealthRules(
  desired: Pick<DesiredState, 'waves' | 'health'> | undefined,
): HealthLimits | undefined {
  const rules = desired?.health;
  if (!rules) return undefined;
  const overrides = (desired?.waves ?? []).flatMap((wave) =>
    wave.maxUnhealthy === undefined ? [] : [[wave.name, wave.maxUnhealthy] as const],
  );
  const pages = (desired?.waves ?? []).flatMap((wave) =>
    wave.paths === undefined ? [] : [[wave.name, wave.paths] as const],
  );
  return {
    rules,
    maxUnhealthy: Object.fromEntries(overrides),
    ...(pages.length > 0 ? { paths: Object.fromEntries(pages) } : {}),
  };
}

/** `Approved.health` of a desired state: absent (not undefined) without health rules. */
export function healthOf(desired: Pick<DesiredState, 'waves' | 'health'> | undefined) {
  const health = waveHealthRules(desired);
  return health === undefined ? {} : { health };
}
