import { randomUUID } from 'node:crypto';
import type { DashboardClient } from '../dashboard/client.js';
import { closedGate } from '../plan/index.js';
import {
  type Action,
  type ActionOutcome,
  type ApplyResult,
  DASHBOARD_UNREACHABLE,
  FLAG_SLUG,
  type HealthPath,
  type HealthRules,
  type LiveState,
  type Plan,
  type Verification,
} from '../types.js';
import { batchPlan } from './batch.js';
import type { ApplyEvent } from './events.js';
import { type ExecuteResult, executePhases } from './execute.js';
import type { GateHealth } from './gate-health.js';
import { checkSafeMode } from './guard.js';
import { createWaveHealthStep } from './health.js';
import type { HeldBack } from './held-back.js';
import type { ApplyJournal } from './journal.js';
import { runStartLine } from './journal-lines.js';
import { recheckReleases } from './release-race.js';
import { needsCheck, unconfirmed, type VerifyReport, verifyOutcomes } from './verify.js';

/**
 * `applyPlan` runs an approved plan and nothing beyond it. Approval (approve-*.ts), locking and
 * the journal file are the caller's (run.ts); apply reports through `onEvent` and returns one
 * outcome per plan action, in plan order, with whether the re-read confirmed them and why the
 * sending stopped. It never prints.
 */

export interface ApplyOptions {
  client: Pick<
    DashboardClient,
    'setIgnored' | 'runUpdates' | 'readLive' | 'stats' | 'checkSites' | 'readRollbacks'
  >;
  /**
   * What the dashboard can do, and its pending updates on the touched sites as read before
   * writing: with them, update calls group sites whose item sets differ (batch.ts).
   */
  live: Pick<LiveState, 'capabilities'> & { pending?: LiveState['pending'] | undefined };
  settings: { safeMode: boolean; concurrency: number };
  signal?: AbortSignal | undefined;
  onEvent?: ((event: ApplyEvent) => void) | undefined;
  journal?: ApplyJournal | undefined;
  /** Failed update actions a wave may have before the rollout stops (default: no limit). */
  maxFailures?: ((wave: string | undefined) => number) | undefined;
  /** Actions not to run (already done by an earlier run, not reviewed, …). */
  holdBack?: ((action: Action) => HeldBack | undefined) | undefined;
  now?: (() => Date) | undefined;
  /**
   * Health checks after each update wave (check-site-v1): a wave that leaves more unhealthy
   * sites than `maxUnhealthy` allows stops the rollout (later waves are skipped, UNHEALTHY).
   */
  health?:
    | {
        rules: HealthRules;
        maxUnhealthy: (wave: string | undefined) => number;
        pages?: (wave: string | undefined) => HealthPath[] | undefined;
      }
    | undefined;
  /**
   * Runs once the run's start is durable in the journal, before any call: what must never be
   * on disk without that start (a saved plan's used mark, run.ts) happens here.
   */
  afterRunStart?: (() => void) | undefined;
  /** The earlier wave's health for a recorded `after` gate, asked before each wave is written. */
  gateHealth?: GateHealth | undefined;
}

export async function applyPlan(plan: Plan, options: ApplyOptions): Promise<ApplyResult> {
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const runId = randomUUID();
  const preset = new Map<number, ActionOutcome>();
  plan.actions.forEach((action, index) => {
    const held = options.holdBack?.(action) ?? unsupported(action, options.live);
    if (held) preset.set(index, { action, ...held });
  });
  const runnableIndices = plan.actions.map((_, index) => index).filter((index) => !preset.has(index));
  const runnable = runnableIndices.map((index) => plan.actions[index]!);
  // Defence in depth: the guard already refused such plans before this point.
  checkSafeMode(runnable, options.settings.safeMode);

  const phases = batchPlan(runnable, options.live.capabilities.queueThreshold, options.live.pending);
  const healthStep =
    options.health &&
    createWaveHealthStep({
      client: options.client,
      ...options.health,
      signal: options.signal,
      onProgress: (progress) => options.onEvent?.({ type: 'health-progress', ...progress }),
    });
  options.onEvent?.({
    type: 'start',
    actions: runnable.length,
    calls: phases.reduce((n, p) => n + p.calls.length, 0),
  });
  await options.journal?.append(
    runStartLine(
      {
        type: 'run-start',
        run_id: runId,
        at: startedAt,
        plan_id: plan.id,
        dashboard: plan.dashboard.url,
        desired_digest: plan.desired_digest,
        ...(plan.wave_limits === undefined ? {} : { wave_limits: plan.wave_limits }),
        ...(plan.gates === undefined ? {} : { gates: plan.gates }),
      },
      // What recovery needs of each action: its identity and what reports show, not the reason.
      runnable.map(({ reason: _reason, ...rest }) => rest),
    ),
  );
  options.afterRunStart?.();
  const executed = await executePhases(runnable, phases, {
    client: options.client,
    concurrency: Math.max(1, options.settings.concurrency),
    maxFailures: options.maxFailures ?? (() => Number.POSITIVE_INFINITY),
    signal: options.signal,
    onEvent: options.onEvent,
    journal: options.journal,
    now,
    health: healthStep,
    // The plan's gates, judged again as each wave is about to be written.
    gateClosed: async (wave) =>
      closedGate(plan.gates, wave, now())?.message ?? (await options.gateHealth?.(wave)),
    recheckWave: (phase) =>
      recheckReleases(phase, runnable, {
        client: options.client,
        queueThreshold: options.live.capabilities.queueThreshold,
        signal: options.signal,
      }),
  });
  // Every outcome in plan order: what was sent, and what was held back (an update skipped as
  // done by an earlier run is checked by the re-read as well).
  const planned = plan.actions.map((action, index) => preset.get(index) ?? action) as ActionOutcome[];
  runnableIndices.forEach((planIndex, i) => {
    planned[planIndex] = executed.outcomes[i]!;
  });
  const toCheck = planned.filter(needsCheck);
  const noReread = toCheck.length > 0 ? rereadSkipped(executed) : undefined;
  let verified: VerifyReport;
  if (toCheck.length === 0) {
    verified = { outcomes: planned };
  } else if (noReread) {
    options.onEvent?.({ type: 'verify-skipped', ...noReread });
    verified = { outcomes: unconfirmed(planned, `no re-read: ${noReread.message}`) };
  } else {
    options.onEvent?.({ type: 'verify', sites: new Set(toCheck.map((o) => o.action.site_id)).size });
    // Ctrl-C during the re-read ends it (a wait for the rate limiter too): nothing is confirmed.
    verified = await verifyOutcomes(options.client, planned, options.signal, (progress) =>
      options.onEvent?.({ type: 'verify-progress', ...progress }),
    );
    if (verified.error) options.onEvent?.({ type: 'verify-failed', ...verified.error });
  }
  // Stops `apply --resume` finishes: the dashboard answers again, a new health check passes,
  // the gate opens.
  const resumable =
    executed.stopped?.code === DASHBOARD_UNREACHABLE ||
    executed.stopped?.code === 'UNHEALTHY' ||
    executed.stopped?.code === 'GATE_CLOSED'
      ? executed.stopped.code
      : undefined;
  const health = healthStep?.reports() ?? [];
  const verification: Verification =
    toCheck.length === 0
      ? { status: 'not-needed' }
      : noReread
        ? { status: 'skipped', ...noReread }
        : verified.error
          ? { status: 'failed', ...verified.error }
          : verified.unreadSites
            ? { status: 'partial', unreadSites: verified.unreadSites }
            : { status: 'confirmed' };

  const result: ApplyResult = {
    plan_id: plan.id,
    started_at: startedAt,
    finished_at: now().toISOString(),
    outcomes: verified.outcomes,
    // Interrupted while sending, or while re-reading (the confirmation was cut short).
    interrupted: executed.interrupted || (verified.error !== undefined && options.signal?.aborted === true),
    calls: executed.calls,
    ...(health.length > 0 ? { health } : {}),
    verification,
    ...(executed.stopped ? { stopped: executed.stopped } : {}),
  };
  await options.journal?.append({
    type: 'run-end',
    run_id: runId,
    at: result.finished_at,
    interrupted: result.interrupted,
    failed: result.outcomes.filter((o) => o.status === 'failed').length,
    // Only a re-read of every checked site settles the journal (journal.ts, completedUpdates):
    // an update reported done on a site it missed must not be sent again by the next run.
    verified: noReread === undefined && verified.error === undefined && verified.unreadSites === undefined,
    // `apply --resume` finishes such a run once the dashboard answers again, once a new health
    // check passes (or with --override-health), or once the gate opens.
    ...(resumable ? { stopped: resumable } : {}),
  });
  options.onEvent?.({ type: 'finished', result });
  return result;
}

/**
 * When the confirming re-read is not made, and why. Its outcomes are then unconfirmed (done but
 * `unverified`), never claimed confirmed; the next run's re-read checks them (the journal keeps
 * the updates reported done, so they are not sent again).
 * - Interrupted: the person wants out now, and the re-read would queue behind the rate limiter
 *   (at SVC_RATE_LIMIT=4 that was over a minute before exit 130).
 * - The dashboard could not be reached: the re-read would only wait out the limiter and its own
 *   retries to fail the same way.
 */
function rereadSkipped(
  executed: ExecuteResult,
): { code: 'INTERRUPTED' | typeof DASHBOARD_UNREACHABLE; message: string } | undefined {
  if (executed.interrupted) return { code: 'INTERRUPTED', message: 'the apply was interrupted' };
  if (executed.stopped?.code === DASHBOARD_UNREACHABLE) {
    return { code: DASHBOARD_UNREACHABLE, message: 'the dashboard could not be reached' };
  }
  return undefined;
}

/** Actions the connected surface cannot perform are blocked, not attempted. */
function unsupported(action: Action, live: Pick<LiveState, 'capabilities'>): HeldBack | undefined {
  // A site-wide flag (slug `*`) changes through the REST site edit route on either surface.
  if (action.slug === FLAG_SLUG && action.op !== 'update' && live.capabilities.siteFlags === 'read-write')
    return undefined;
  if (action.op === 'unignore' && !live.capabilities.canUnignore) {
    return {
      status: 'blocked',
      code: 'UNSUPPORTED',
      message: `the ${live.capabilities.surface} surface cannot unignore`,
    };
  }
  if (action.op === 'ignore' && action.kind !== 'core' && !live.capabilities.canIgnore) {
    return {
      status: 'blocked',
      code: 'UNSUPPORTED',
      message: `the ${live.capabilities.surface} surface cannot ignore single items`,
    };
  }
  if (action.op !== 'update' && action.kind === 'core' && !live.capabilities.canIgnoreCore) {
    return {
      status: 'blocked',
      code: 'UNSUPPORTED',
      message: `the ${live.capabilities.surface} surface cannot change core ignores`,
    };
  }
  if (action.op !== 'update' && action.kind === 'translation') {
    return { status: 'blocked', code: 'UNSUPPORTED', message: 'translations cannot be ignored' };
  }
  return undefined;
}
