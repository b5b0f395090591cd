import type { DashboardClient } from '../dashboard/client.js';
import { isDashboardUnreachable } from '../errors.js';
import {
  type Action,
  type ActionOutcome,
  DASHBOARD_UNREACHABLE,
  type PendingUpdate,
  type StopCode,
} from '../types.js';
import { batchPlan, type CallPhase } from './batch.js';

/**
 * The version race: the dashboard's run-updates always installs the latest release (it takes
 * no target version), so an update wave sent after a newer release appeared would install a
 * version the plan never showed, whose soak never ran. Before each update wave after the first
 * one a run sends (the first went out right after the plan's own read or re-check), the wave's
 * sites are read again; an update whose item now pends a different version than the plan's is
 * not sent: it is skipped as NEWER_RELEASE, to be planned again (the next plan records the new
 * version's first sighting, so its soak starts then). The rest of the wave is batched again,
 * so no call's product of kinds and slugs reaches a taken-out item.
 */
export interface WaveRecheck {
  phase: CallPhase;
  /** Index into the run's actions → the outcome of an update taken out. */
  outcomes: Map<number, ActionOutcome>;
}

export interface ReleaseRaceOptions {
  client: Pick<DashboardClient, 'readLive'>;
  queueThreshold: number;
  signal?: AbortSignal | undefined;
}

/** Throws when the read fails: the caller stops the run (a wave is never sent unchecked). */
export async function recheckReleases(
  phase: CallPhase,
  actions: readonly Action[],
  options: ReleaseRaceOptions,
): Promise<WaveRecheck> {
  const indices = phase.calls.flatMap((call) => call.actions);
  const siteIds = [...new Set(indices.map((index) => actions[index]!.site_id))].sort((a, b) => a - b);
  const live = await options.client.readLive({
    siteIds,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const pending = new Map<string, string[]>();
  for (const update of live.pending) {
    const key = itemKey(update.siteId, update);
    pending.set(key, [...(pending.get(key) ?? []), update.to]);
  }
  const outcomes = new Map<number, ActionOutcome>();
  for (const index of indices) {
    const action = actions[index]!;
    const newer = newerRelease(action, pending.get(itemKey(action.site_id, action)));
    if (newer === undefined) continue;
    const item = action.kind === 'core' ? 'core' : `${action.kind} ${action.slug}`;
    outcomes.set(index, {
      action,
      status: 'skipped',
      code: 'NEWER_RELEASE',
      message: `not sent: ${item} has a newer release (${newer}) than the plan showed (${action.to}); the dashboard would install ${newer}, so it is planned again and its soak starts`,
    });
  }
  if (outcomes.size === 0) return { phase, outcomes };
  const kept = indices.filter((index) => !outcomes.has(index));
  const [rebatched] = batchPlan(
    kept.map((index) => actions[index]!),
    options.queueThreshold,
    live.pending,
  );
  const calls = (rebatched?.calls ?? []).map((call) => ({
    ...call,
    actions: call.actions.map((at) => kept[at]!),
  }));
  return { phase: { ...phase, calls }, outcomes };
}

function itemKey(siteId: number, item: Pick<PendingUpdate, 'kind' | 'slug'>): string {
  return `${siteId} ${item.kind} ${item.slug}`;
}

/**
 * The version now pending instead of the plan's, if any. Translations report no version (the
 * plan's `to` is empty): nothing to compare. An item no longer pending is left to the call and
 * the confirming re-read, as before.
 */
function newerRelease(action: Action, now: readonly string[] | undefined): string | undefined {
  if (!now || now.length === 0 || action.kind === 'translation' || action.to === undefined) return undefined;
  if (now.includes(action.to)) return undefined;
  return now.find((version) => version !== '') ?? undefined;
}

/**
 * A wave's release re-check, or why the run stops before the wave: a read that fails leaves the
 * wave unsent (never sent unchecked); `apply --resume` takes it up again.
 */
export async function recheckOrStop(
  phase: CallPhase,
  recheckWave: (phase: CallPhase) => Promise<WaveRecheck>,
): Promise<WaveRecheck | { stopped: { code: StopCode; message: string } }> {
  try {
    return await recheckWave(phase);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const message = `the releases pending for wave ${phase.wave ?? '(default)'} could not be read again before it (${why})`;
    return {
      stopped: { code: isDashboardUnreachable(error) ? DASHBOARD_UNREACHABLE : 'GATE_CLOSED', message },
    };
  }
}
