/**
 * When an update a policy allows may run now, from the desired state's maintenance windows,
 * soak times and wave order, the recorded rollout state and plan-time health checks. An update
 * that may not run yet is planned as waiting (a `waiting` note), never as an action.
 *
 * Messages are shared by every site a note lists, so they hold no per-site detail.
 */

import { type CompiledWindow, compileWindow, describeAge } from '../schedule/index.js';
import type { DesiredState, PendingUpdate, PlanRollout, RolloutHalt, UpdatePolicy, Wave } from '../types.js';
import { describeItem, sourceLabel } from './reasons.js';
import { waveClock } from './rollout-clock.js';
import { REMAINING_WAVE } from './waves.js';

export interface UpdateGates {
  /**
   * Why `update`, allowed by `policy`, waits; undefined when it may run now. A security update
   * skips the gates `bypass` names (windows, soak times); wave order still holds it.
   */
  waitReason(
    update: PendingUpdate,
    policy: UpdatePolicy,
    wave: string | undefined,
    bypass?: { soak: boolean; window: boolean },
  ): string | undefined;
  /**
   * What the updates that may run now passed, per wave (`undefined`: no waves): the policies
   * whose windows they needed, and when the last of their soak times ended. The plan records
   * it (`gates`) so apply can judge the same gates again when it writes.
   */
  passed(): ReadonlyMap<string | undefined, PassedGates>;
}

export interface PassedGates {
  /** The policies whose windows the wave's updates needed (none for updates that skipped them). */
  policies: Set<UpdatePolicy>;
  /**
   * False when every update of the wave skipped the windows (security updates): then the wave's
   * own window is no gate of this plan either.
   */
  windowed: boolean;
  /** Epoch ms; absent when no update of the wave had a soak time. */
  soakEndedAt?: number;
}

/** The `first_seen` key of a target version. */
export function versionKey(update: Pick<PendingUpdate, 'kind' | 'slug' | 'to'>): string {
  return `${update.kind} ${update.slug} ${update.to}`;
}

export function compileUpdateGates(
  desired: DesiredState,
  rollout: PlanRollout | undefined,
  now: Date,
): UpdateGates {
  const policyWindows = new Map<UpdatePolicy, CompiledWindow>();
  for (const policy of desired.policies)
    if (policy.window) policyWindows.set(policy, compileWindow(policy.window));
  const waveWindows = new Map<string, CompiledWindow>();
  for (const wave of desired.waves) if (wave.window) waveWindows.set(wave.name, compileWindow(wave.window));
  // Asked per update: each window's answer at `now` once.
  const openCache = new Map<CompiledWindow, boolean>();
  const isOpen = (window: CompiledWindow) => {
    let open = openCache.get(window);
    if (open === undefined) {
      open = window.isOpen(now);
      openCache.set(window, open);
    }
    return open;
  };
  // When each closed window opens, once per window: notes say it in the zone and in UTC.
  const opensCache = new Map<CompiledWindow, string>();
  const opens = (window: CompiledWindow) => {
    let text = opensCache.get(window);
    if (text === undefined) {
      const at = window.nextOpen(now);
      text = at ? `it opens ${window.describeMoment(at)}` : 'it does not open within a year';
      opensCache.set(window, text);
    }
    return text;
  };
  const firstSeen = rollout?.state.first_seen ?? {};
  const passed = new Map<string | undefined, PassedGates>();
  const pass = (
    policy: UpdatePolicy,
    wave: string | undefined,
    soakEnd: number | undefined,
    windowed: boolean,
  ) => {
    const entry = passed.get(wave) ?? { policies: new Set<UpdatePolicy>(), windowed: false };
    if (windowed) {
      entry.policies.add(policy);
      entry.windowed = true;
    }
    if (soakEnd !== undefined) entry.soakEndedAt = Math.max(entry.soakEndedAt ?? soakEnd, soakEnd);
    passed.set(wave, entry);
  };
  return {
    waitReason(update, policy, wave, bypass) {
      const windowed = bypass?.window !== true;
      // Windows hold every version of an item alike: one note per item, not per target version.
      const policyWindow = windowed ? policyWindows.get(policy) : undefined;
      if (policyWindow && !isOpen(policyWindow)) {
        return `${describeItem(update)} updates wait for the window of policy "${policy.name}": ${policyWindow.describe()}; ${opens(policyWindow)}`;
      }
      const waveWindow = wave === undefined || !windowed ? undefined : waveWindows.get(wave);
      if (waveWindow && !isOpen(waveWindow)) {
        return `${describeItem(update)} updates wait for the window of wave "${wave}": ${waveWindow.describe()}; ${opens(waveWindow)}`;
      }
      const soak = bypass?.soak === true ? undefined : policy.minReleaseAge;
      let soakEnd: number | undefined;
      if (soak) {
        // Not recorded yet means first seen now: the caller records it with this plan's time.
        const seen = firstSeen[versionKey(update)];
        const parsed = seen === undefined ? Number.NaN : Date.parse(seen);
        const seenAt = Number.isNaN(parsed) ? now.getTime() : parsed;
        soakEnd = seenAt + soak.ms;
        // One note per item, policy and first sighting, never per target version: a fleet pends
        // many versions of one item, mostly first seen by the same run (docs/benchmarks.md).
        if (now.getTime() < soakEnd) {
          const first =
            seenAt === now.getTime() ? `first seen now (${now.toISOString()})` : `first seen ${seen}`;
          return `${describeItem(update)} updates soak: policy "${policy.name}" takes a version only once it has been pending ${soak.text} (min_release_age, ${sourceLabel(policy.source)}); versions ${first} soak until ${new Date(soakEnd).toISOString()}`;
        }
      }
      pass(policy, wave, soakEnd, windowed);
      return undefined;
    },
    passed: () => passed,
  };
}

/**
 * Waves that may not start in this plan, with the reason, in rollout order. A wave waits when
 * - it starts `after` a wave that still has updates to run or waiting in this plan, or whose last
 *   apply is more recent than `healthy_for`, or that a plan-time health check found unhealthy
 *   (or did not check); or
 * - an earlier wave's last apply left unhealthy sites that a plan-time check still finds
 *   unhealthy: a broken rollout stops itself until it is fixed or overridden; or
 * - an earlier wave waits: waves run in order.
 */
export function blockedWaves(
  waves: readonly Wave[],
  rollout: PlanRollout | undefined,
  now: Date,
  activeByWave: ReadonlyMap<string, number>,
): Map<string, string> {
  const blocked = new Map<string, string>();
  const names = [...waves.map((wave) => wave.name), REMAINING_WAVE];
  const byName = new Map(waves.map((wave) => [wave.name, wave]));
  const override = rollout?.overrideHealth === true;
  let stopAll: string | undefined;
  for (const name of names) {
    if (stopAll) {
      blocked.set(name, stopAll);
      continue;
    }
    const wave = byName.get(name);
    const reason = wave?.after ? afterReason(wave, rollout, now, activeByWave, override) : undefined;
    if (reason) blocked.set(name, reason);
    // A wave's own unhealthy record holds back every wave after it.
    const unhealthy = override ? undefined : unhealthyReason(name, rollout);
    stopAll = unhealthy ?? (reason ? `waits for wave "${name}", which ${reason}` : undefined);
  }
  return blocked;
}

function afterReason(
  wave: Wave,
  rollout: PlanRollout | undefined,
  now: Date,
  activeByWave: ReadonlyMap<string, number>,
  override: boolean,
): string | undefined {
  const after = wave.after!;
  const before = `wave "${after.wave}"`;
  const starts = `starts after ${before} has been healthy for ${after.healthyFor.text}`;
  if ((activeByWave.get(after.wave) ?? 0) > 0) return `${starts}; ${before} still has updates to run`;
  const clock = waveClock(rollout?.state.waves[after.wave]);
  // No record of the wave (a lost or older state file, or it never ran): its time is unknown
  // and counts as now, the moment svc-gitops first sees it done (recorded after this plan).
  const from = clock?.at ?? now.toISOString();
  const since = now.getTime() - Date.parse(from);
  if (!(since >= after.healthyFor.ms)) {
    const ready = new Date(Date.parse(from) + after.healthyFor.ms).toISOString();
    return `${starts}; ${clockText(clock, from, since)}, so not before ${ready}`;
  }
  if (override) return undefined;
  const checked = rollout?.health[after.wave];
  if (!checked) return `${starts}; its health was not checked at plan time`;
  if (checked.length > 0) return `${starts}; a health check found ${checked.length} unhealthy site(s) in it`;
  return undefined;
}

function clockText(clock: ReturnType<typeof waveClock>, from: string, since: number): string {
  const ago = `(${describeAge(since)} ago)`;
  switch (clock?.since) {
    case undefined:
      return `the rollout state has no record of when it last ran, so its ${'`healthy_for`'} counts from now, ${from}`;
    case 'updated':
      return `it was last updated ${from} ${ago}`;
    case 'done-seen':
      return `svc-gitops first saw it done ${from} ${ago} (the rollout state had no record of its apply)`;
    case 'unhealthy':
      return `a health check found it unhealthy ${from} ${ago}, which restarts the count`;
  }
}

/**
 * The wave's last apply left unhealthy sites and the plan-time re-check did not clear them. The
 * reason names the first few sites, what is wrong and the update that preceded it (from the
 * record): the plan comment is where reviewers see why the rollout stopped.
 */
function unhealthyReason(name: string, rollout: PlanRollout | undefined): string | undefined {
  const record = rollout?.state.waves[name];
  if (!record || record.unhealthy.length === 0) return undefined;
  const rechecked = rollout?.health[name];
  if (rechecked && rechecked.length === 0) return undefined;
  const sites = rechecked ?? record.unhealthy;
  const after = new Map(record.unhealthy.map((site) => [site.site_id, site.after ?? []]));
  const named = sites.slice(0, 3).map((site) => {
    const moves = after.get(site.site_id) ?? [];
    return `${site.site_url}: ${site.problem}${moves.length > 0 ? ` after ${moves.join(', ')}` : ''}`;
  });
  const more = sites.length > 3 ? `; and ${sites.length - 3} more` : '';
  return `waits for wave "${name}", which left ${sites.length} unhealthy site(s) (${named.join('; ')}${more}); fix them, or run with --override-health`;
}

/**
 * The first wave, in rollout order, whose recorded unhealthy sites a plan-time re-check did not
 * clear (absent with --override-health): while it lasts the rollout is halted there.
 */
export function rolloutHalt(
  waves: readonly Wave[],
  rollout: PlanRollout | undefined,
): RolloutHalt | undefined {
  if (!rollout || rollout.overrideHealth) return undefined;
  for (const name of [...waves.map((wave) => wave.name), REMAINING_WAVE]) {
    const record = rollout.state.waves[name];
    if (!record || record.unhealthy.length === 0) continue;
    const rechecked = rollout.health[name];
    if (rechecked && rechecked.length === 0) continue;
    const after = new Map(record.unhealthy.map((site) => [site.site_id, site.after]));
    const unhealthy = (rechecked ?? record.unhealthy).map((site) => {
      const moves = site.after ?? after.get(site.site_id);
      return moves === undefined ? site : { ...site, after: moves };
    });
    const since = record.unhealthy_since ?? record.unhealthy_at ?? record.updated_at ?? record.done_seen_at;
    return { wave: name, since: since ?? '', unhealthy };
  }
  return undefined;
}
