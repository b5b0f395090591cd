import type * as nodeFs from 'node:fs';
import {
  type ApplyReport,
  approveSaved,
  type DashboardClient,
  type Diagnostic,
  openSession,
  refusalError,
  type Session,
  type SessionPlan,
  type Settings,
  SvcError,
  type VariableOf,
} from '../../index.js';
import { renderApplyCalls } from '../../render/index.js';
import {
  insideWorkingDirectory,
  toolChoice,
  type Validated,
  validateText,
  withProblems,
} from './desired-source.js';

/**
 * The GitOps half of the tool server on the engine library (src/index.ts), behind one small
 * interface: validate and plan through the engine's session (openSession), apply a plan the way a
 * saved plan is applied (approveSaved: integrity, expiry, dashboard, safe mode; runApproved: lock,
 * single use, touched sites unchanged, journal; then the rollout state), the refusal apply would
 * give now, and the calls apply would send. Apply stays composed here: the session's approval of
 * a saved plan words its refusals for the CLI (`plan --out FILE`, SVC_* variables).
 */
export interface GitopsEngine {
  validate(source: DesiredSource): Promise<Validated>;
  plan(request: PlanRequest, signal: AbortSignal): Promise<Planned>;
  /** Throws what apply would refuse the plan with now (strict names, expiry, safe mode, …). */
  check(planned: Planned): void;
  apply(planned: Planned, signal: AbortSignal): Promise<ApplyReport>;
  describeCalls(planned: Planned): Promise<string>;
}

/** A desired-state path inside the working directory, or YAML text. */
export type DesiredSource = { path?: string; yaml?: string };

export type { Validated } from './desired-source.js';

export interface PlanRequest {
  config?: string;
  targets?: string[];
}

/** A plan of the session with what it was made from: the engine's session plan. */
export type Planned = SessionPlan;

export interface EngineOptions {
  client: DashboardClient;
  settings: Settings;
  fs: typeof nodeFs;
  cwd: string;
  now: () => Date;
  /** Journal, lock and used plans, as the CLI keeps them (`.svc-gitops/`). */
  stateDir: string;
  /** The variables refusals name (the server's product: SVC_* or NAME_* under --namespace). */
  variable: VariableOf;
  /** The variable of the REST API key that plan notes name (SVC_TOKEN, or NAME_TOKEN). */
  tokenVariable: string;
  /** The variable of the strict setting its refusal names (SVC_STRICT, or NAME_STRICT). */
  strictVariable: string;
  /** How a refused plan's hint says to plan again, in this server's words (see CLI_REPLAN). */
  replan: string;
  onWarning: (message: string) => void;
}

export function createEngine(options: EngineOptions): GitopsEngine {
  const { client, settings, cwd } = options;
  return {
    ...planning(options),

    async validate(source) {
      if (source.yaml !== undefined) return validateText(source.yaml);
      const config =
        source.path === undefined
          ? undefined
          : insideWorkingDirectory(cwd, source.path, 'or pass the YAML as text');
      const session = sessionOf(options, undefined, []);
      const loaded = await session.validate(config);
      return {
        source: loaded.configPath,
        diagnostics: loaded.diagnostics,
        ...(loaded.desired ? { desired: loaded.desired } : {}),
      };
    },

    check(planned) {
      approve(options, planned, settings.safeMode);
    },

    async apply(planned, signal) {
      const approved = approve(options, planned, settings.safeMode);
      // Run, journal and rollout records through the session, as the CLI's apply runs them.
      const session = sessionOf(options, signal, []);
      try {
        const applied = await session.apply(
          {
            kind: 'approved',
            approved,
            dashboardUrl: client.url,
            configPath: planned.configPath,
            desired: planned.desired,
          },
          { stateDir: options.stateDir },
        );
        return applied.report;
      } catch (error) {
        throw inToolWords(error, options.replan);
      } finally {
        await session.close();
      }
    },

    async describeCalls(planned) {
      const approved = approve(options, planned, false);
      const session = sessionOf(options, undefined, []);
      try {
        const calls = await session.calls({
          kind: 'approved',
          approved,
          dashboardUrl: client.url,
          configPath: planned.configPath,
        });
        return renderApplyCalls(calls, client.url);
      } finally {
        await session.close();
      }
    },
  };
}

/**
 * The approval of a plan as a saved plan's (integrity, expiry, same dashboard, safe mode when
 * asked), after strict: a plan the session found naming what the dashboard does not know, under
 * strict, is never applied, as the CLI never saves it. A refusal throws.
 */
function approve(options: EngineOptions, planned: Planned, safeMode: boolean) {
  const { client, now } = options;
  const unknown = planned.refusals.find((refusal) => refusal.code === 'UNKNOWN_NAMES');
  if (unknown) {
    throw new SvcError('CONFIG_INVALID', unknown.message, {
      hint: `correct the names in the desired state and plan again (strict is on: ${options.strictVariable})`,
      details: { reason: 'unknown-names' },
    });
  }
  const decision = approveSaved(planned.plan, {
    dashboardUrl: client.url,
    safeMode,
    variable: options.variable,
    replan: options.replan,
    now: now(),
    config: { path: planned.configPath, desired: planned.desired },
  });
  if (decision.kind === 'refused') throw refusalError(decision);
  if (decision.kind !== 'approved')
    throw new SvcError('INTERNAL', `a saved-plan approval ended ${decision.kind}`);
  return decision;
}

/**
 * A refusal the run words for the CLI, in the tool's words: a plan whose touched sites changed
 * (`details.changed_sites`) is planned again with the plan tool, not with `plan --out FILE`.
 */
function inToolWords(error: unknown, replan: string): unknown {
  if (!(error instanceof SvcError) || error.code !== 'PREVIEW_REQUIRED' || !error.details.changed_sites)
    return error;
  return new SvcError(error.code, error.message, { hint: replan, details: error.details, cause: error });
}

/**
 * One session per call: its signal is the call's, and what it reports (warnings, the desired
 * state's problems) belongs to that call. The dashboard client is the server's, kept open.
 */
function sessionOf(options: EngineOptions, signal: AbortSignal | undefined, problems: Diagnostic[]): Session {
  const { client, settings, fs, cwd, now } = options;
  return openSession({
    settings,
    fs,
    cwd,
    now,
    signal,
    client,
    tokenVariable: options.tokenVariable,
    configChoice: toolChoice(cwd),
    on: {
      warning: options.onWarning,
      diagnostics: (diagnostics) => problems.push(...diagnostics),
      checked: (wave, _count, _unhealthy, refused) => {
        if (refused.length > 0)
          options.onWarning(
            `the dashboard answered ${refused.length} health check(s) of wave ${wave} with an error (first: ${refused[0]}); those sites count as unhealthy`,
          );
      },
    },
  });
}

/**
 * Plan now through the engine's session, as the CLI plans: the rollout state beside the config
 * (read, locked, written), the health checks its wave gates need, the names the dashboard does
 * not know (strict from the settings), and the refusals the apply would meet.
 */
function planning(options: EngineOptions): Pick<GitopsEngine, 'plan'> {
  return {
    async plan(request, signal) {
      const config =
        request.config === undefined ? undefined : insideWorkingDirectory(options.cwd, request.config);
      const problems: Diagnostic[] = [];
      const session = sessionOf(options, signal, problems);
      try {
        return await withProblems(problems, () =>
          session.plan({
            config,
            ...(request.targets?.length ? { targets: request.targets } : {}),
          }),
        );
      } finally {
        await session.close();
      }
    },
  };
}
