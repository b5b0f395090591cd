import { resolve } from 'node:path';
import type { DashboardClient } from '../dashboard/index.js';
import { isSvcError, SvcError } from '../errors.js';
import {
  DEFAULT_HEALTH,
  emptyRolloutState,
  healthChecksNeeded,
  observeVersions,
  parseRolloutState,
  previewRollout,
  REMAINING_WAVE,
  recordDoneWaves,
  recordHealthChecks,
  recordWaves,
  serialiseRolloutState,
  siteProblem,
  wavesDone,
} from '../plan/index.js';
import { terminalText } from '../render/index.js';
import type {
  ApplyResult,
  DesiredState,
  LiveState,
  Plan,
  PlanRollout,
  RolloutState,
  UnhealthySite,
} from '../types.js';
import type { CliContext } from './context.js';
import { createCountProgressPrinter } from './count-progress.js';
import { writeFileAtomic } from './write-file.js';

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

export function readRolloutState(
  ctx: CliContext,
  path: string,
  now: Date,
): { state: RolloutState; text: string | undefined } {
  let text: string;
  try {
    text = ctx.fs.readFileSync(path, 'utf8') as string;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT')
      return { state: emptyRolloutState(), text: undefined };
    throw new SvcError(
      'IO_ERROR',
      `cannot read ${path} (${String((error as { code?: unknown }).code ?? error)})`,
      {
        cause: error,
      },
    );
  }
  return { state: parseRolloutState(text, path, now), text };
}

export function writeRolloutState(
  ctx: CliContext,
  path: string,
  state: RolloutState,
  previous: string | undefined,
): void {
  const text = serialiseRolloutState(state);
  if (text === previous) return;
  try {
    writeFileAtomic(ctx.fs, ctx.cwd, path, [text]);
  } catch (error) {
    const message = isSvcError(error) ? error.message : String(error);
    throw new SvcError('IO_ERROR', message, {
      hint: 'the rollout state lives beside the desired state: make that directory writable',
      cause: error,
    });
  }
  ctx.stderr.write(`Recorded the rollout state in ${path} (commit it with the desired state).\n`);
}

/**
 * Before planning: the recorded state, with this read's versions observed, and the health checks
 * the wave gates need (status only: there is no earlier reading to compare times with); a check
 * that finds a wave unhealthy is recorded. `finishRollout` writes the state once the plan is
 * made, so a version's first sighting is kept even if the plan is never applied.
 */
export async function prepareRollout(
  ctx: CliContext,
  desired: DesiredState,
  live: LiveState,
  client: Pick<DashboardClient, 'checkSites'>,
  configPath: string,
  options: {
    overrideHealth: boolean;
    completeRead: boolean;
    /** A preview's moment (`plan --at`): the gates are judged then, from what is known now. */
    at?: Date | undefined;
  },
): Promise<PlanRollout | undefined> {
  if (!usesRolloutState(desired)) return undefined;
  const path = rolloutStatePath(ctx.cwd, configPath);
  const now = ctx.now();
  const { state: recorded } = readRolloutState(ctx, path, now);
  const seen = observeVersions(recorded, live, now, options.completeRead);
  // A preview first records what the plan made now would (waves seen done start their count
  // now), then asks for the checks its later moment needs.
  const observed = options.at
    ? previewRollout(desired, live, { state: seen, health: {} }, now, options.completeRead).state
    : seen;
  const health: Record<string, UnhealthySite[]> = {};
  const rules = desired.health ?? DEFAULT_HEALTH;
  const urls = new Map(live.sites.map((site) => [site.id, site.url]));
  for (const { wave, siteIds } of healthChecksNeeded(desired, live, observed, options.at ?? now)) {
    const progress = createCountProgressPrinter(
      ctx.stderr,
      () => ctx.now().getTime(),
      `health: checking wave ${wave} at plan time, sites`,
    );
    let readings: Awaited<ReturnType<typeof client.checkSites>>;
    try {
      readings = await client.checkSites(siteIds, { signal: ctx.signal, onProgress: progress.onProgress });
    } finally {
      progress.finish();
    }
    health[wave] = [];
    for (const reading of readings) {
      const problem = siteProblem(reading, rules);
      if (problem !== undefined)
        health[wave].push({ site_id: reading.siteId, site_url: urls.get(reading.siteId) ?? '', problem });
    }
    ctx.stderr.write(
      `Checked the health of ${siteIds.length} site(s) of wave ${wave}: ${health[wave].length === 0 ? 'healthy' : `${health[wave].length} unhealthy`}.\n`,
    );
    // A login that may only read is refused check-site (it is not a read-only ability): such
    // sites count as unhealthy, the safe side, and the person learns why the gate stays shut.
    const refused = readings.find((reading) => reading.error !== undefined);
    if (refused) {
      ctx.stderr.write(
        `svc-gitops: warning: the dashboard answered ${readings.filter((r) => r.error !== undefined).length} health check(s) of wave ${wave} with an error (first: ${terminalText(refused.error ?? '')}); those sites count as unhealthy\n`,
      );
    }
  }
  const state = recordHealthChecks(observed, health, now);
  return { state, health, ...(options.overrideHealth ? { overrideHealth: true } : {}) };
}

/**
 * After planning: the waves the plan shows done for the first time without a record start their
 * `healthy_for` now; the state (with the read's sightings and checks) is written.
 */
export function finishRollout(
  ctx: CliContext,
  configPath: string,
  planned: {
    desired: DesiredState;
    live: LiveState;
    plan: Plan;
    rollout?: PlanRollout;
    targetSiteIds?: number[];
  },
): void {
  if (!planned.rollout) return;
  const path = rolloutStatePath(ctx.cwd, configPath);
  let text: string | undefined;
  try {
    text = ctx.fs.readFileSync(path, 'utf8') as string;
  } catch {
    text = undefined;
  }
  const done = wavesDone(planned.desired, planned.live, planned.plan, planned.targetSiteIds === undefined);
  writeRolloutState(ctx, path, recordDoneWaves(planned.rollout.state, done, ctx.now()), text);
}

/** After an apply: each named wave that ran updates records when, and what its health check found. */
export function recordApply(
  ctx: CliContext,
  desired: DesiredState,
  configPath: string,
  result: ApplyResult,
): void {
  if (!usesRolloutState(desired)) return;
  const waves = new Set<string>();
  for (const outcome of result.outcomes) {
    const wave = outcome.action.wave;
    if (
      outcome.action.op === 'update' &&
      outcome.status === 'done' &&
      wave !== undefined &&
      wave !== REMAINING_WAVE
    )
      waves.add(wave);
  }
  if (waves.size === 0) return;
  const path = rolloutStatePath(ctx.cwd, configPath);
  const now = ctx.now();
  const { state, text } = readRolloutState(ctx, path, now);
  const unhealthyOf = new Map((result.health ?? []).map((entry) => [entry.wave, entry.unhealthy]));
  const applied = [...waves].map((wave) => ({ wave, unhealthy: unhealthyOf.get(wave) ?? [] }));
  writeRolloutState(ctx, path, recordWaves(state, applied, now), text);
}

/**
 * `apply --resume` continues a rollout a health check stopped only once a new check passes:
 * while a wave's recorded unhealthy sites are still unhealthy (and no --override-health), it is
 * refused, and the interrupted run stays open for the next try.
 */
export function refuseWhileUnhealthy(rollout: PlanRollout | undefined): void {
  if (!rollout || rollout.overrideHealth) return;
  for (const [wave, record] of Object.entries(rollout.state.waves)) {
    const rechecked = rollout.health[wave];
    if (record.unhealthy.length === 0 || !rechecked || rechecked.length === 0) continue;
    const sites = rechecked
      .slice(0, 5)
      .map((site) => `site ${site.site_id} ${site.site_url} (${site.problem})`)
      .join(', ');
    throw new SvcError(
      'UNHEALTHY',
      `wave ${wave} still has ${rechecked.length} unhealthy site(s): ${sites}${rechecked.length > 5 ? ', …' : ''}`,
      {
        hint: 'fix the sites and run `svc-gitops apply --resume` again, or continue anyway with `--override-health`',
      },
    );
  }
}
