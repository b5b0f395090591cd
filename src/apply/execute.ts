import type { DashboardClient } from '../dashboard/client.js';
import { isDashboardUnreachable, isSvcError } from '../errors.js';
import { type Action, type ActionOutcome, DASHBOARD_UNREACHABLE, type StopCode } from '../types.js';
import type { ApplyCall, CallPhase } from './batch.js';
import { outcomesOfError, outcomesOfIgnore, outcomesOfRunUpdates } from './call-outcomes.js';
import type { ApplyEvent } from './events.js';
import type { WaveHealthStep } from './health.js';
import type { ApplyJournal } from './journal.js';
import type { OutcomeEntry } from './journal-lines.js';
import { recheckOrStop, type WaveRecheck } from './release-race.js';
import { createAnnouncer } from './write-ahead.js';

/**
 * Runs batched calls: phases strictly in order, calls within a phase with bounded concurrency
 * (the client enforces the rate limit). It never throws for a failed call: every action ends
 * with an outcome. Invariants:
 * - a call's `sent` line is durable before it goes out (write-ahead.ts) and its answer
 *   (`result`) is journalled after;
 * - once the signal aborts, a wave crosses its failure threshold, a call fails in a way no later
 *   call can get past, or the dashboard cannot be reached at all, no new call starts (not even
 *   one whose `sent` line was being written meanwhile); in-flight calls finish and everything
 *   not started is `skipped` with the reason;
 * - once any journal line (`sent` or `result`) cannot be written, no new call starts either;
 *   execution throws that error after the calls in flight are answered.
 */

/**
 * Failures after which no later call can succeed (credentials rejected, the session's data
 * budget spent): the rest is skipped instead of failing one call at a time.
 */
const FATAL_CODES: ReadonlySet<string> = new Set<StopCode>([
  'AUTH_FAILED',
  'FORBIDDEN',
  'RESOURCE_EXHAUSTED',
]);

export interface ExecuteOptions {
  client: Pick<DashboardClient, 'setIgnored' | 'runUpdates'>;
  concurrency: number;
  /** Failed update actions a wave may have before the rollout stops. */
  maxFailures: (wave: string | undefined) => number;
  signal?: AbortSignal | undefined;
  onEvent?: ((event: ApplyEvent) => void) | undefined;
  journal?: ApplyJournal | undefined;
  now: () => Date;
  /** Health checks around each update wave (health.ts); absent: none. */
  health?: WaveHealthStep | undefined;
  /** Why a wave's recorded gates are shut now (asked before its first call); undefined: open. */
  gateClosed?: ((wave: string | undefined) => string | undefined | Promise<string | undefined>) | undefined;
  /** Each update wave after the first, checked against the releases pending now (release-race.ts). */
  recheckWave?: ((phase: CallPhase) => Promise<WaveRecheck>) | undefined;
}

export interface ExecuteResult {
  outcomes: ActionOutcome[];
  interrupted: boolean;
  calls: number;
  /**
   * Why calls were held back (interrupt, wave threshold, fatal failure, unreachable dashboard);
   * the actions not started are skipped with this code and `not started: <message>`.
   */
  stopped?: { code: StopCode; message: string };
}

/** What one call came back with. */
interface CallReport {
  results: ActionOutcome[];
  /** Set when the client held the call back after an interrupt: the dashboard never saw it. */
  notSent?: true;
  /** Set when the call failed because the dashboard could not be reached (see above). */
  unreachable?: Error;
}

export async function executePhases(
  actions: readonly Action[],
  phases: readonly CallPhase[],
  options: ExecuteOptions,
): Promise<ExecuteResult> {
  const outcomes: Array<ActionOutcome | undefined> = new Array(actions.length);
  const progress = { settled: 0, failed: 0, total: actions.length };
  let calls = 0;
  let stopReason: { code: StopCode; message: string } | undefined;
  /** Set once a journal line could not be written: no call starts after that. */
  let journalFailure: { error: unknown } | undefined;
  const resultsDurable: Array<Promise<void>> = [];
  const announcer = createAnnouncer(options.journal, {
    now: options.now,
    window: Math.max(8, 4 * options.concurrency),
  });

  const settle = (results: ActionOutcome[], indices: number[]) => {
    results.forEach((outcome, i) => {
      outcomes[indices[i]!] = outcome;
      progress.settled += 1;
      if (outcome.status === 'failed') progress.failed += 1;
    });
  };

  const runCall = async (call: ApplyCall, seq: number): Promise<CallReport> => {
    announcer.started(seq);
    const callActions = call.actions.map((i) => actions[i]!);
    options.onEvent?.({ type: 'call-start', call });
    const report = await sendCall(call, callActions, options);
    if (!report.notSent) calls += 1;
    const { results } = report;
    settle(results, call.actions);
    // The result line is written now; its fsync is shared with the next `sent` line (group
    // commit) instead of holding this worker, and awaited before execution returns. A result
    // that cannot be written stops the sending as a `sent` line does.
    let durable: Promise<void> | undefined;
    try {
      // Actions by their index in the run-start line (results are in the call's action order).
      durable = options.journal?.append({
        type: 'result',
        seq,
        at: options.now().toISOString(),
        outcomes: results.map(
          (o, i): OutcomeEntry =>
            o.code === undefined ? [call.actions[i]!, o.status] : [call.actions[i]!, o.status, o.code],
        ),
      });
    } catch (error) {
      durable = Promise.reject(error);
    }
    if (durable) {
      durable.catch((error: unknown) => {
        journalFailure ??= { error };
      });
      resultsDurable.push(durable);
    }
    options.onEvent?.({ type: 'call-done', call, outcomes: results, progress: { ...progress } });
    return report;
  };

  /** Whether no new call may start; notices an abort once. */
  const halted = (): boolean => {
    if (journalFailure || stopReason) return true;
    if (options.signal?.aborted) {
      stopReason = { code: 'INTERRUPTED', message: 'the apply was interrupted' };
      options.onEvent?.({ type: 'interrupted', progress: { ...progress } });
      return true;
    }
    return false;
  };

  let updateWaves = 0;
  for (const planned of phases) {
    if (stopReason) break;
    let shut: string | undefined;
    try {
      shut = planned.kind === 'update' ? await options.gateClosed?.(planned.wave) : undefined;
    } catch (error) {
      if (halted()) break; // interrupted while judging: reported as the interrupt it is
      // A gate that cannot be judged (its health check failed) stays shut: fail closed.
      shut = `wave ${planned.wave}: its gate could not be judged (${error instanceof Error ? error.message : String(error)})`;
    }
    if (shut !== undefined) {
      stopReason = { code: 'GATE_CLOSED', message: shut };
      options.onEvent?.({ type: 'stopped', code: 'GATE_CLOSED', message: shut });
      break;
    }
    let phase = planned;
    if (planned.kind === 'update' && updateWaves++ > 0 && options.recheckWave) {
      const rechecked = await recheckOrStop(planned, options.recheckWave);
      if ('stopped' in rechecked) {
        if (!halted()) {
          stopReason = rechecked.stopped;
          options.onEvent?.({ type: 'stopped', ...rechecked.stopped });
        }
        break;
      }
      for (const [index, outcome] of rechecked.outcomes) settle([outcome], [index]);
      phase = rechecked.phase;
    }
    const limit = phase.kind === 'update' ? options.maxFailures(phase.wave) : Number.POSITIVE_INFINITY;
    let waveFailures = 0;
    let next = 0;
    const worker = async () => {
      while (next < phase.calls.length && !halted()) {
        const index = next++;
        let seq: number;
        try {
          seq = await announcer.announce(phase.calls, index);
        } catch (error) {
          journalFailure ??= { error };
          break;
        }
        // Announcing may have waited for the disk: a stop that came meanwhile holds this call
        // back too (it stays announced only, and is journalled as skipped).
        if (halted()) break;
        const { results, unreachable, notSent } = await runCall(phase.calls[index]!, seq);
        // Held back by the client's start gate: the interrupt is this run's, even if it was the last call.
        if (notSent && !stopReason) {
          stopReason = { code: 'INTERRUPTED', message: 'not started: the apply was interrupted' };
          options.onEvent?.({ type: 'interrupted', progress: { ...progress } });
        }
        if (unreachable && !stopReason) {
          const why = `the dashboard could not be reached (${unreachable.message})`;
          stopReason = { code: DASHBOARD_UNREACHABLE, message: why };
          options.onEvent?.({ type: 'stopped', code: DASHBOARD_UNREACHABLE, message: why });
        }
        const fatal = results.find((o) => o.status === 'failed' && FATAL_CODES.has(o.code ?? ''));
        if (fatal && !stopReason) {
          stopReason = { code: fatal.code as StopCode, message: fatal.message ?? fatal.code! };
          options.onEvent?.({ type: 'stopped', code: fatal.code!, message: fatal.message ?? '' });
        }
        waveFailures += results.filter((o) => o.status === 'failed').length;
        if (waveFailures > limit && !stopReason) {
          stopReason = {
            code: 'WAVE_STOPPED',
            message: `wave ${phase.wave ?? '(default)'} had ${waveFailures} failed updates (more than ${limit})`,
          };
          options.onEvent?.({
            type: 'wave-stopped',
            wave: phase.wave,
            failed: waveFailures,
            maxFailures: limit,
          });
        }
      }
    };
    if (phase.kind === 'update') await options.health?.before(phase.wave, phaseActions(phase, actions));
    const workers = Math.max(1, Math.min(options.concurrency, phase.calls.length));
    // Every worker is waited for, even after one failed (a journal write): apply must not return,
    // and its caller release the lock, while another worker's call is still in flight.
    const settled = await Promise.allSettled(Array.from({ length: workers }, worker));
    const rejected = settled.find((result) => result.status === 'rejected');
    if (rejected) throw rejected.reason;
    if (journalFailure) break;
    // Set by the workers: the narrowing from the loop's first line does not hold here.
    const stopped = stopReason as ExecuteResult['stopped'];
    if (phase.kind === 'update' && options.health && (!stopped || stopped.code === 'WAVE_STOPPED')) {
      const indices = phase.calls.flatMap((call) => call.actions);
      const done = indices.flatMap((index) => outcomes[index] ?? []);
      const report = await options.health.after(phase.wave, done);
      options.onEvent?.({ type: 'health', report });
      if (report.stopped && !stopped) {
        const wave = phase.wave ?? '(default)';
        stopReason = {
          code: 'UNHEALTHY',
          message: `not started: wave ${wave} left ${report.unhealthy.length} unhealthy site(s) (more than ${report.max_unhealthy})`,
        };
        options.onEvent?.({ type: 'stopped', code: 'UNHEALTHY', message: stopReason.message });
      }
    }
  }
  if (journalFailure) {
    await Promise.allSettled(resultsDurable);
    throw journalFailure.error;
  }

  const skipped: { code: StopCode; message: string } = stopReason
    ? { code: stopReason.code, message: `not started: ${stopReason.message}` }
    : { code: 'INTERRUPTED', message: 'not started' };
  await announcer.closeUnstarted(skipped.code);
  await Promise.all(resultsDurable);
  const final = actions.map(
    (action, index): ActionOutcome =>
      outcomes[index] ?? { action, status: 'skipped', code: skipped.code, message: skipped.message },
  );
  return {
    outcomes: final,
    interrupted: stopReason?.code === 'INTERRUPTED',
    calls,
    ...(stopReason ? { stopped: stopReason } : {}),
  };
}

function phaseActions(phase: CallPhase, actions: readonly Action[]): Action[] {
  return phase.calls.flatMap((call) => call.actions.map((index) => actions[index]!));
}

async function sendCall(
  call: ApplyCall,
  callActions: Action[],
  options: ExecuteOptions,
): Promise<CallReport> {
  try {
    if (call.type === 'set-ignored') {
      await options.client.setIgnored({
        siteId: call.siteId,
        kind: call.kind,
        direction: call.direction,
        slugs: call.slugs,
      });
      return { results: outcomesOfIgnore(callActions) };
    }
    const result = await options.client.runUpdates({
      siteIds: call.siteIds,
      items: call.items,
      // batch.ts checked the product of the call's kinds and slugs on each of its sites.
      productChecked: true,
      onJobProgress: (job) => options.onEvent?.({ type: 'job', ...job }),
    });
    // Per-site errors in the result are replies of a live dashboard: never "unreachable".
    return { results: outcomesOfRunUpdates(callActions, result) };
  } catch (error) {
    // A call still waiting for the rate limiter or a free slot when Ctrl-C came never left.
    if (isSvcError(error) && error.code === 'INTERRUPTED' && error.details.sent === false) {
      return {
        results: callActions.map((action) => ({
          action,
          status: 'skipped',
          code: 'INTERRUPTED',
          message: 'not started: the apply was interrupted',
        })),
        notSent: true,
      };
    }
    // In-flight calls get no signal: an update half-sent is worse than one that finishes.
    const results = outcomesOfError(callActions, error);
    return isDashboardUnreachable(error) ? { results, unreachable: error as Error } : { results };
  }
}
