import type * as nodeFs from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DashboardClient } from '../dashboard/index.js';
import { SvcError } from '../errors.js';
import {
  adoptQuarantines,
  DEFAULT_HEALTH,
  emptyRolloutState,
  healthChecksNeeded,
  observeVersions,
  parseRolloutState,
  previewRollout,
  quarantinesOfApply,
  REMAINING_WAVE,
  recordDoneWaves,
  recordHealthChecks,
  recordQuarantines,
  recordWaves,
  serialiseRolloutState,
  siteProblem,
  wavesDone,
} from '../plan/index.js';
import type {
  ApplyResult,
  DesiredState,
  LiveState,
  Plan,
  PlanRollout,
  RolloutState,
  UnhealthySite,
} from '../types.js';

/**
 * The rollout state file beside the desired state: `svc-gitops.yaml` → `svc-gitops.rollout.json`,
 * a directory `svc-gitops/` → `svc-gitops.rollout.json` next to it. Named after the config, so
 * several configs in one directory (one per dashboard) keep their own.
 */
export function rolloutStatePath(cwd: string, configPath: string): string {
  const absolute = resolve(cwd, configPath).replace(/[/\\]+$/, '');
  return `${absolute.replace(/\.ya?ml$/i, '')}.rollout.json`;
}

/** Soak times, wave gates and health records need the file; windows alone do not. */
export function usesRolloutState(desired: DesiredState): boolean {
  return (
    desired.health !== undefined ||
    desired.policies.some((policy) => policy.minReleaseAge !== undefined) ||
    desired.waves.some((wave) => wave.after !== undefined)
  );
}

/** What the rollout use cases need of their caller: files, the clock, and where to report. */
export interface RolloutContext {
  fs: typeof nodeFs;
  cwd: string;
  now: () => Date;
  signal?: AbortSignal | undefined;
}

/** A missing file is the empty state; an unreadable or invalid one throws (gates fail closed). */
export function readRolloutState(
  fs: typeof nodeFs,
  path: string,
  now: Date,
): { state: RolloutState; text: string | undefined } {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') return { state: emptyRolloutState(), text: undefined };
    throw new SvcError('IO_ERROR', `cannot read ${path} (${String(code ?? error)})`, { cause: error });
  }
  return { state: parseRolloutState(text, path, now), text };
}

/**
 * Writes the state whole or not at all (a temporary sibling renamed over the file); returns
 * false when the text is unchanged and nothing was written. The refusal carries no hint: each
 * front end words its own.
 */
export function writeRolloutState(
  fs: typeof nodeFs,
  path: string,
  state: RolloutState,
  previous: string | undefined,
): boolean {
  const text = serialiseRolloutState(state);
  if (text === previous) return false;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dirname(path), { recursive: true });
    fs.writeFileSync(temporary, text, { mode: 0o644 });
    fs.renameSync(temporary, path);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    const code = (error as { code?: unknown }).code;
    throw new SvcError('IO_ERROR', `cannot write ${path}: ${String(code ?? error)}`, { cause: error });
  }
  return true;
}

/** The progress of one wave's plan-time health check, and what it found. */
export interface HealthCheckEvents {
  /** Called as a wave's check starts: its progress sink. */
  checking?:
    | ((wave: string) => { onProgress: (done: number, total: number) => void; finish(): void })
    | undefined;
  /** After a wave's check: how many sites were checked, the unhealthy ones, and refused checks. */
  checked?:
    | ((wave: string, siteCount: number, unhealthy: UnhealthySite[], refused: string[]) => void)
    | undefined;
}

export interface PrepareRolloutOptions extends HealthCheckEvents {
  desired: DesiredState;
  live: LiveState;
  client: Pick<DashboardClient, 'checkSites'>;
  configPath: string;
  overrideHealth: boolean;
  /** False for a targeted read: it lists only the targeted sites' updates. */
  completeRead: boolean;
  /** A preview's moment: the gates are judged then, from what is known now. */
  at?: Date | undefined;
}

/**
 * Before planning: the recorded state, with this read's versions observed, and the health checks
 * the wave gates need (status only); a check that finds a wave unhealthy is recorded. Undefined
 * when the desired state uses no rollout state. Nothing is written here: `finishRollout` does.
 */
export async function prepareRollout(
  ctx: RolloutContext,
  options: PrepareRolloutOptions,
): Promise<PlanRollout | undefined> {
  const { desired, live } = options;
  if (!usesRolloutState(desired)) return undefined;
  const now = ctx.now();
  const { state: recorded } = readRolloutState(ctx.fs, rolloutStatePath(ctx.cwd, options.configPath), now);
  const seen = observeVersions(recorded, live, now, options.completeRead);
  // A preview first records what the plan made now would, then asks for its moment's checks.
  const observed = options.at
    ? previewRollout(desired, live, { state: seen, health: {} }, now, options.completeRead).state
    : seen;
  const health: Record<string, UnhealthySite[]> = {};
  const rules = desired.health ?? DEFAULT_HEALTH;
  const urls = new Map(live.sites.map((site) => [site.id, site.url]));
  for (const { wave, siteIds } of healthChecksNeeded(desired, live, observed, options.at ?? now)) {
    const progress = options.checking?.(wave);
    let readings: Awaited<ReturnType<typeof options.client.checkSites>>;
    try {
      readings = await options.client.checkSites(siteIds, {
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(progress ? { onProgress: progress.onProgress } : {}),
      });
    } finally {
      progress?.finish();
    }
    health[wave] = [];
    for (const reading of readings) {
      const problem = siteProblem(reading, rules);
      if (problem !== undefined)
        health[wave].push({ site_id: reading.siteId, site_url: urls.get(reading.siteId) ?? '', problem });
    }
    // A refused check (a login that may only read) counts as unhealthy: the safe side.
    const refused = readings.flatMap((reading) => (reading.error === undefined ? [] : [reading.error]));
    options.checked?.(wave, siteIds.length, health[wave], refused);
  }
  const state = recordHealthChecks(observed, health, now);
  return { state, health, ...(options.overrideHealth ? { overrideHealth: true } : {}) };
}

/** What finishRollout needs of a plan just made. */
export interface PlannedRollout {
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
  rollout?: PlanRollout;
  targetSiteIds?: number[];
}

/**
 * After planning: the waves the plan shows done for the first time start their `healthy_for`
 * now, and the state (with the read's sightings and checks) is written. Returns the path when
 * the file changed.
 */
export function finishRollout(
  ctx: RolloutContext,
  configPath: string,
  planned: PlannedRollout,
): string | undefined {
  if (!planned.rollout) return undefined;
  const path = rolloutStatePath(ctx.cwd, configPath);
  let text: string | undefined;
  try {
    text = ctx.fs.readFileSync(path, 'utf8') as string;
  } catch {
    text = undefined;
  }
  const done = wavesDone(planned.desired, planned.live, planned.plan, planned.targetSiteIds === undefined);
  const now = ctx.now();
  const state = adoptQuarantines(recordDoneWaves(planned.rollout.state, done, now), planned.desired, now);
  return writeRolloutState(ctx.fs, path, state, text) ? path : undefined;
}

/**
 * After an apply: each named wave that ran updates records when, and what its health check
 * found; each version a halting health check blames is quarantined (rollout-quarantine.ts).
 * Returns the path when the file changed.
 */
export function recordApply(
  ctx: RolloutContext,
  desired: DesiredState,
  configPath: string,
  result: ApplyResult,
): string | undefined {
  if (!usesRolloutState(desired)) return undefined;
  const waves = new Set<string>();
  for (const { action, status } of result.outcomes) {
    if (
      action.op === 'update' &&
      status === 'done' &&
      action.wave !== undefined &&
      action.wave !== REMAINING_WAVE
    )
      waves.add(action.wave);
  }
  const now = ctx.now();
  const quarantined = quarantinesOfApply(result, now);
  if (waves.size === 0 && quarantined.length === 0) return undefined;
  const path = rolloutStatePath(ctx.cwd, configPath);
  const { state, text } = readRolloutState(ctx.fs, path, now);
  const unhealthyOf = new Map((result.health ?? []).map((entry) => [entry.wave, entry.unhealthy]));
  const applied = [...waves].map((wave) => ({ wave, unhealthy: unhealthyOf.get(wave) ?? [] }));
  const next = recordQuarantines(recordWaves(state, applied, now), quarantined);
  return writeRolloutState(ctx.fs, path, next, text) ? path : undefined;
}

/**
 * The first wave whose recorded unhealthy sites a plan-time re-check still finds unhealthy,
 * unless health is overridden: a rollout so stopped does not resume.
 */
export function stillUnhealthy(
  rollout: PlanRollout | undefined,
): { wave: string; unhealthy: UnhealthySite[] } | undefined {
  if (!rollout || rollout.overrideHealth) return undefined;
  for (const [wave, record] of Object.entries(rollout.state.waves)) {
    const rechecked = rollout.health[wave];
    if (record.unhealthy.length === 0 || !rechecked || rechecked.length === 0) continue;
    return { wave, unhealthy: rechecked };
  }
  return undefined;
}
