import { resolve } from 'node:path';
import {
  type ApplyEvent,
  type ApplyLockPlace,
  type CallPhase,
  plannedCalls,
  runApproved,
  statePaths,
} from '../apply/index.js';
import type { DashboardClient } from '../dashboard/index.js';
import type { NotificationEvent } from '../notify/index.js';
import type { ApplyReport } from '../render/index.js';
import type { Settings } from '../settings/index.js';
import type { ApplyResult } from '../types.js';
import { openDashboard } from './dashboard.js';
import { type DesiredLoad, loadDesired } from './desired.js';
import { type ExplainQuery, type Explanation, explainPlan } from './explain.js';
import { applyEvents, notify, thrownFailure } from './notify-events.js';
import { movesToNotify, rememberNotified } from './notify-memory.js';
import { applyReport } from './report.js';
import { recordApply } from './rollout.js';
import { type Approval, type ApproveRequest, approveUseCase } from './session-approve.js';
import { type PlanDeps, planUseCase, rolloutContext } from './session-plan.js';
import { type SessionStatus, statusUseCase } from './session-status.js';
import type { PlanRequest, SessionOptions, SessionPlan } from './session-types.js';

/**
 * The engine's front door: every front end (the CLI, the GitHub Action, the tool server) runs
 * its use cases through one session, so a gate that holds in one holds in all. The session owns
 * the decisions: the rollout state (read, locked, written), gates at plan and at apply time,
 * health checks, approvals (the nothing-to-apply case too), the refusals the merge-time apply
 * would meet, and the reports. A front end gathers input, listens to `on`, and words what it
 * shows; nothing here prints, exits or reads the environment.
 */
export interface Session {
  /** The desired state's load: located problems, never thrown for bad content. */
  validate(config?: string): Promise<DesiredLoad>;
  /** A plan made now, with its unknown names and the refusals the merge-time apply would meet. */
  plan(request?: PlanRequest): Promise<SessionPlan>;
  /** Drift is a plan against the live dashboard; a halted rollout is drift until resolved. */
  drift(request?: PlanRequest): Promise<SessionPlan & { drift: boolean }>;
  /** A plan made now, grouped by state with the last apply's failures (the history file). */
  status(request?: PlanRequest): Promise<SessionStatus>;
  /** Decides whether and what to apply; never sends a write. */
  approve(request: ApproveRequest): Promise<Approval>;
  /** Runs an approval: apply lock, journal, calls, re-read; then the rollout state and the report. */
  apply(approval: Extract<Approval, { kind: 'approved' }>, options: ApplyRunOptions): Promise<Applied>;
  /** What a plan of this session does to an item on a site, and why (pure: no read). */
  explain(planned: SessionPlan, query: ExplainQuery): Explanation;
  /** The calls an approval would send, sending nothing. */
  calls(approval: Extract<Approval, { kind: 'approved' }>): Promise<CallPhase[]>;
  /** Closes the dashboard client the session opened (not one the caller passed in). */
  close(): Promise<void>;
}

export interface ApplyRunOptions {
  /** Where the journal and used-plan records live. */
  stateDir: string;
  /** The apply lock of the dashboard at this address (default: the per-user directory under home). */
  lock?: ((dashboardUrl: string) => Promise<ApplyLockPlace>) | undefined;
  onEvent?: ((event: ApplyEvent) => void) | undefined;
}

export interface Applied {
  result: ApplyResult;
  report: ApplyReport;
  /** The journal of the run, for a front end's resume hint. */
  journal: string;
}

export function openSession(options: SessionOptions): Session {
  const events = options.on ?? {};
  let settings: Settings | undefined;
  let client: DashboardClient | undefined = options.client;
  const deps: PlanDeps = {
    options,
    events,
    settings: () => {
      settings ??= typeof options.settings === 'function' ? options.settings() : options.settings;
      return settings;
    },
    client: () => {
      if (client) return client;
      client = openDashboard(deps.settings(), {
        onWarning: events.warning,
        startSignal: options.signal,
        timers: options.timers,
      });
      events.opened?.(client);
      return client;
    },
  };
  return {
    validate: (config) =>
      loadDesired({
        cwd: options.cwd,
        fs: options.fs,
        config,
        signal: options.signal,
        choice: options.configChoice,
      }),
    plan: (request = {}) => planUseCase(deps, request),
    async drift(request = {}) {
      const planned = await planUseCase(deps, request);
      return {
        ...planned,
        drift: planned.plan.actions.length > 0 || planned.plan.rollout_halt !== undefined,
      };
    },
    status: (request = {}) => statusUseCase(deps, request),
    approve: (request) => approveUseCase(deps, request),
    apply: (approval, run) => applyApproved(deps, approval, run),
    explain: explainPlan,
    async calls(approval) {
      const capabilities = approval.approved.capabilities ?? (await deps.client().capabilities());
      return plannedCalls(approval.approved, capabilities);
    },
    async close() {
      if (client && client !== options.client) await client.close();
    },
  };
}

async function applyApproved(
  deps: PlanDeps,
  approval: Extract<Approval, { kind: 'approved' }>,
  run: ApplyRunOptions,
): Promise<Applied> {
  const { options, events } = deps;
  const client = deps.client();
  const paths = statePaths(resolve(options.cwd, run.stateDir), client.url);
  const warnings: string[] = [];
  const onWarning = (message: string) => {
    events.warning?.(message);
    warnings.push(message);
  };
  const notifyOf = (found: NotificationEvent[], planId: string | null) =>
    notify(found, {
      settings: deps.settings(),
      dashboardUrl: client.url,
      planId,
      now: options.now(),
      onWarning,
      sleep: options.timers ? (ms) => options.timers!.sleep(ms) : undefined,
    });
  let result: ApplyResult;
  try {
    result = await runApproved(approval.approved, {
      client,
      settings: deps.settings(),
      fs: options.fs,
      paths,
      ...(run.lock ? { lock: await run.lock(client.url) } : {}),
      signal: options.signal,
      now: options.now,
      onEvent: run.onEvent,
      onWarning,
    });
  } catch (error) {
    // An apply that could not run (the lock, a refused login) is a failed apply too.
    const code = (error as { code?: unknown }).code;
    await notifyOf([thrownFailure(typeof code === 'string' ? code : 'ERROR')], approval.approved.plan.id);
    throw error;
  }
  if (approval.desired) {
    const path = await recordApply(
      rolloutContext(options, events),
      approval.desired,
      approval.configPath,
      result,
    );
    if (path !== undefined) events.recorded?.(path);
  }
  const { plan } = approval.approved;
  const memory = approval.desired
    ? { ctx: rolloutContext(options, events), desired: approval.desired, configPath: approval.configPath }
    : undefined;
  const vulnerable = movesToNotify(plan, memory);
  const delivered = await notifyOf(applyEvents(plan, result, options.now(), vulnerable), result.plan_id);
  // Remembered only once delivered: a notification that failed is sent again by the next apply.
  if (delivered && memory && vulnerable.length > 0) {
    const path = await rememberNotified(memory, plan);
    if (path !== undefined) events.recorded?.(path);
  }
  return {
    result,
    report: applyReport(approval.approved, result, client.url, warnings),
    journal: paths.journal,
  };
}
