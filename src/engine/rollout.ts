import type * as nodeFs from 'node:fs';
import { checkPages } from '../apply/index.js';
import type { DashboardClient } from '../dashboard/index.js';
import {
  adoptQuarantines,
  DEFAULT_HEALTH,
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
import {
  type LockTimers,
  type RolloutLockOptions,
  readRolloutState,
  rolloutStatePath,
  withRolloutLock,
  writeRolloutState,
} from './rollout-file.js';

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
  /** A lock taken over from a process that is gone. */
  onWarning?: ((message: string) => void) | undefined;
  /** The clock and waits of the rollout lock (real timers by default). */
  timers?: LockTimers | undefined;
}

function lockOptions(ctx: RolloutContext): RolloutLockOptions {
  return { onWarning: ctx.onWarning ?? (() => {}), timers: ctx.timers, signal: ctx.signal };
}

/** The text each prepared rollout was read from: finishRollout writes over it without reading twice. */
const readFrom = new WeakMap<PlanRollout, { path: string; text: string | undefined }>();

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
  const path = rolloutStatePath(ctx.cwd, options.configPath);
  const { state: recorded, text } = readRolloutState(ctx.fs, path, now);
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
    const problems = new Map<number, string>();
    for (const reading of readings) {
      const problem = siteProblem(reading, rules);
      if (problem !== undefined) problems.set(reading.siteId, problem);
    }
    // The site's pages as after a wave, so a halt from a page check is not cleared by check-site alone.
    const passed = siteIds.filter((id) => !problems.has(id)).map((id) => ({ id, url: urls.get(id) ?? '' }));
    const paths = desired.waves.find((each) => each.name === wave)?.paths ?? rules.paths ?? [];
    for (const [id, problem] of await checkPages(passed, { ...rules, paths }, ctx.signal))
      problems.set(id, problem);
    for (const id of siteIds) {
      const problem = problems.get(id);
      if (problem !== undefined) health[wave].push({ site_id: id, site_url: urls.get(id) ?? '', problem });
    }
    // A refused check (a login that may only read) counts as unhealthy: the safe side.
    const refused = readings.flatMap((reading) => (reading.error === undefined ? [] : [reading.error]));
    options.checked?.(wave, siteIds.length, health[wave], refused);
  }
  const state = recordHealthChecks(observed, health, now);
  const rollout: PlanRollout = { state, health, ...(options.overrideHealth ? { overrideHealth: true } : {}) };
  readFrom.set(rollout, { path, text });
  return rollout;
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
 * now, and the state (with the read's sightings and checks) is written, under the rollout lock.
 * The file is not parsed again unless another run wrote it since it was read: then both runs'
 * records are kept, each record on the safe side (as a union merge of the file does). Returns
 * the path when the file changed.
 */
export async function finishRollout(
  ctx: RolloutContext,
  configPath: string,
  planned: PlannedRollout,
): Promise<string | undefined> {
  if (!planned.rollout) return undefined;
  const path = rolloutStatePath(ctx.cwd, configPath);
  const read = readFrom.get(planned.rollout);
  const done = wavesDone(planned.desired, planned.live, planned.plan, planned.targetSiteIds === undefined);
  const now = ctx.now();
  const mine = adoptQuarantines(recordDoneWaves(planned.rollout.state, done, now), planned.desired, now);
  return withRolloutLock(ctx.fs, path, lockOptions(ctx), () => {
    const current = currentText(ctx.fs, path);
    const state =
      read !== undefined && read.path === path && read.text === current
        ? mine
        : merged(current, mine, path, now);
    return writeRolloutState(ctx.fs, path, state, current) ? path : undefined;
  });
}

/** The file's text, undefined when it does not exist (other failures surface in the parse or write). */
function currentText(fs: typeof nodeFs, path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Another run's records and these, each record on the safe side: the union a Git merge makes. */
function merged(current: string | undefined, mine: RolloutState, path: string, now: Date): RolloutState {
  if (current === undefined) return mine;
  return parseRolloutState(`${current}\n${serialiseRolloutState(mine)}`, path, now);
}

/**
 * After an apply: each named wave that ran updates records when, and what its health check
 * found, and each version a halting health check blames is quarantined (rollout-quarantine.ts),
 * under the rollout lock. Returns the path when the file changed.
 */
export async function recordApply(
  ctx: RolloutContext,
  desired: DesiredState,
  configPath: string,
  result: ApplyResult,
): Promise<string | undefined> {
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
  const unhealthyOf = new Map((result.health ?? []).map((entry) => [entry.wave, entry.unhealthy]));
  const applied = [...waves].map((wave) => ({ wave, unhealthy: unhealthyOf.get(wave) ?? [] }));
  return withRolloutLock(ctx.fs, path, lockOptions(ctx), () => {
    const { state, text } = readRolloutState(ctx.fs, path, now);
    const next = recordQuarantines(recordWaves(state, applied, now), quarantined);
    return writeRolloutState(ctx.fs, path, next, text) ? path : undefined;
  });
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
