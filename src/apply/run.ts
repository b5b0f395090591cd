import type * as nodeFs from 'node:fs';
import { homedir } from 'node:os';
import type { DashboardClient, ReadLiveOptions } from '../dashboard/client.js';
import { SvcError } from '../errors.js';
import { closedGate } from '../plan/index.js';
import type { ApplyResult, DashboardCapabilities } from '../types.js';
import { applyPlan } from './apply-plan.js';
import { batchPlan, type CallPhase } from './batch.js';
import type { Approved } from './decision.js';
import type { ApplyEvent } from './events.js';
import { type GateHealth, gateHealthCheck } from './gate-health.js';
import { checkLiveUnchanged } from './guard.js';
import { namingSites, recordHistory } from './history-record.js';
import { completedUpdates, type JournalRecord, openJournal, readJournal } from './journal.js';
import { type ApplyLockPlace, applyLockPlace } from './lock-dir.js';
import { withApplyLock } from './session.js';
import type { StatePaths } from './state-dir.js';
import { combineHoldBacks, skipCompleted } from './subset.js';
import { alreadyUsed, isPlanUsed, markPlanUsed } from './used-plans.js';
import { failureLimit, heldBackOf, unhealthyLimit, wavePages } from './wave-limits.js';

export interface RunApprovedOptions {
  client: Pick<
    DashboardClient,
    'setIgnored' | 'runUpdates' | 'readLive' | 'stats' | 'capabilities' | 'checkSites' | 'readRollbacks'
  >;
  /** historyFile: where the run's history lines go (history.ts); unset, the state directory's. */
  settings: { safeMode: boolean; concurrency: number; historyFile?: string | undefined };
  fs: typeof nodeFs;
  /** The apply records of this dashboard and config (`statePaths`). */
  paths: StatePaths;
  /**
   * The apply lock (`applyLockPlace`): per dashboard and user, so another config, checkout or
   * state directory never splits it. Default: the per-user directory under the home directory.
   */
  lock?: ApplyLockPlace | undefined;
  /** Aborting finishes the calls in flight, starts no more and skips the confirming re-read. */
  signal?: AbortSignal | undefined;
  now?: (() => Date) | undefined;
  onEvent?: ((event: ApplyEvent) => void) | undefined;
  /** Lock takeovers and the like: the run goes on. */
  onWarning?: ((message: string) => void) | undefined;
}

/**
 * Runs an approved plan: under the apply lock of its dashboard and config, a saved plan is
 * checked for single use and its touched sites re-read against its fingerprints (a refusal is
 * an SvcError PREVIEW_REQUIRED, nothing sent); then the journal is opened, updates an earlier
 * run completed are held back, and the plan is applied, a saved plan marked used right after
 * its run's start is durable. Returns the complete
 * result; the lock is released whatever happens.
 */
export async function runApproved(approved: Approved, options: RunApprovedOptions): Promise<ApplyResult> {
  const now = options.now ?? (() => new Date());
  const { fs, paths } = options;
  const { client, names } = namingSites(options.client);
  const gateHealth = gateHealthCheck(approved.plan.gates, client, approved.health?.rules, options.signal);
  await refuseClosedGate(approved, now(), gateHealth);
  const lock = options.lock ?? (await applyLockPlace({}, homedir(), approved.plan.dashboard.url));
  return withApplyLock(fs, paths, lock, now(), options.onWarning ?? (() => {}), async () => {
    let capabilities = approved.capabilities;
    let pending = approved.pending;
    const records = readJournal(fs, paths.journal);
    const planId = approved.plan.id;
    if (approved.savedPlan) {
      // Used: marked so, or started (a run killed between its start and the mark): either way
      // the plan was applied, and `apply --resume` finishes a run that did not end.
      if (isPlanUsed(fs, paths.usedPlans, planId) || startedRun(records, planId)) throw alreadyUsed(planId);
      // The re-check reads the dashboard too: an abort must stop it as it stops every other read.
      const { signal } = options;
      const reading = {
        readLive: (read?: ReadLiveOptions) =>
          client.readLive({
            ...read,
            ...(signal === undefined ? {} : { signal }),
            onProgress: (progress) => options.onEvent?.({ type: 'recheck-progress', ...progress }),
          }),
      };
      const checked = await checkLiveUnchanged(approved.plan, reading);
      capabilities = checked.capabilities;
      pending = checked.pending;
    }
    const completed = completedUpdates(records);
    const journal = openJournal(fs, paths.journal);
    // The mark follows the run's durable start, never the other way round: a kill between the
    // two leaves a started run that `--resume` finds, never a used plan with nothing to resume.
    const markUsed = approved.savedPlan ? () => markPlanUsed(fs, paths.usedPlans, planId, now()) : undefined;
    const { health } = approved;
    try {
      const result = await applyPlan(approved.plan, {
        client,
        live: { capabilities: capabilities ?? (await client.capabilities()), pending },
        settings: options.settings,
        signal: options.signal,
        onEvent: options.onEvent,
        journal,
        maxFailures: (wave) => failureLimit(approved.maxFailures, wave),
        health: health && {
          rules: health.rules,
          maxUnhealthy: (wave) => unhealthyLimit(health, wave),
          pages: (wave) => wavePages(health, wave),
        },
        holdBack: combineHoldBacks(skipCompleted(completed), heldBackOf(approved.heldBack)),
        now,
        afterRunStart: markUsed,
        gateHealth,
      });
      recordHistory(
        fs,
        paths,
        options.settings.historyFile,
        result,
        approved.plan.dashboard.url,
        names,
        options.onWarning,
      );
      return result;
    } finally {
      journal.close();
    }
  });
}

function startedRun(records: readonly JournalRecord[], planId: string): boolean {
  return records.some((record) => record.type === 'run-start' && record.plan_id === planId);
}

/** The calls a run of `approved` would send (a dry run), in order; held-back actions are not among them. */
export function plannedCalls(
  approved: Approved,
  capabilities: Pick<DashboardCapabilities, 'queueThreshold'>,
): CallPhase[] {
  const held = heldBackOf(approved.heldBack);
  const runnable = approved.plan.actions.filter((action) => !held(action));
  return batchPlan(runnable, capabilities.queueThreshold, approved.pending);
}

/**
 * A gate of the first wave apply would write that is shut now (a window that closed since the
 * plan was made) refuses the whole run before the lock, the journal or any call: nothing is
 * written. Later waves are judged as they come (execute.ts), and stop the run there.
 */
async function refuseClosedGate(approved: Approved, now: Date, gateHealth: GateHealth): Promise<void> {
  const held = heldBackOf(approved.heldBack);
  const first = approved.plan.actions.find((action) => action.op === 'update' && !held(action));
  if (!first) return;
  const shut = closedGate(approved.plan.gates, first.wave, now);
  if (shut) {
    throw new SvcError('GATE_CLOSED', `not applied: ${shut.message}; nothing was sent`, {
      details: { ...shut },
      hint: 'apply again once it opens; the plan records its gates and apply judges them as it writes',
    });
  }
  // The earlier wave's health, checked now (read-only calls): a wave that broke since the plan
  // was made keeps the next one shut, with nothing written.
  const unhealthy = await gateHealth(first.wave);
  if (unhealthy === undefined) return;
  throw new SvcError('GATE_CLOSED', `not applied: ${unhealthy}; nothing was sent`, {
    details: { gate: 'after', ...(first.wave === undefined ? {} : { wave: first.wave }) },
    hint: 'fix the unhealthy sites and plan again: the next plan holds the wave until they have been healthy for its healthy_for',
  });
}
