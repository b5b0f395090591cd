import type * as nodeFs from 'node:fs';
import { resolve } from 'node:path';
import {
  type ApplyReport,
  applyReport,
  approveSaved,
  type DashboardClient,
  type DesiredState,
  finishRollout,
  judgeNames,
  type LiveState,
  loadDesired,
  type Plan,
  planNow,
  plannedCalls,
  prepareRollout,
  type RolloutContext,
  recordApply,
  refusalError,
  refusedNames,
  requireDesired,
  runApproved,
  type Settings,
  SvcError,
  statePaths,
  type UnknownName,
  type VariableOf,
} from '../../index.js';
import { renderApplyCalls } from '../../render/index.js';
import type { PlanRollout } from '../../types.js';
import {
  insideWorkingDirectory,
  toolChoice,
  type Validated,
  validateText,
  withProblems,
} from './desired-source.js';

/**
 * The GitOps half of the tool server on the engine library (src/index.ts), behind one small
 * interface: validate, plan now, apply a plan the way a saved plan is applied (approveSaved:
 * integrity, expiry, dashboard, safe mode; runApproved: lock, single use, touched sites
 * unchanged, journal), the refusal apply would give now, and the calls apply would send.
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

export interface Planned {
  plan: Plan;
  live: LiveState;
  desired: DesiredState;
  configPath: string;
  /** The rollout state and plan-time health checks the plan was made with, if any. */
  rollout?: PlanRollout;
  /**
   * Sites and slugs the desired state names that the dashboard does not know (notes of slugs
   * not judged included); under strict, judged after reading the installed items, as the CLI.
   */
  unknown: UnknownName[];
}

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
  const { client, settings, fs, cwd, now } = options;
  return {
    ...planning(options),

    async validate(source) {
      if (source.yaml !== undefined) return validateText(source.yaml);
      const config =
        source.path === undefined
          ? undefined
          : insideWorkingDirectory(cwd, source.path, 'or pass the YAML as text');
      const loaded = await loadDesired({ cwd, fs, config, choice: toolChoice(cwd) });
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
      const decision = approve(options, planned, settings.safeMode);
      const warnings: string[] = [];
      const paths = statePaths(resolve(cwd, options.stateDir), client.url);
      const result = await runApproved(decision, {
        client,
        settings,
        fs,
        paths,
        signal,
        now,
        replan: options.replan,
        onWarning: (message) => {
          warnings.push(message);
          options.onWarning(message);
        },
      });
      // The rollout state records the waves this run updated, as the CLI's apply does.
      await recordApply({ fs, cwd, now, signal }, planned.desired, planned.configPath, result);
      return applyReport(decision, result, client.url, warnings);
    },

    async describeCalls(planned) {
      const decision = approve(options, planned, false);
      return renderApplyCalls(plannedCalls(decision, await client.capabilities()), client.url);
    },
  };
}

/**
 * The approval of a plan as a saved plan's (integrity, expiry, same dashboard, safe mode when
 * asked) after the strict check: under strict a plan that names what the dashboard does not know
 * is never applied, as the CLI never saves it. A refusal throws.
 */
function approve(options: EngineOptions, planned: Planned, safeMode: boolean) {
  const { client, settings, now } = options;
  const unknown = refusedNames(planned.unknown);
  if (settings.strict && unknown.length > 0) throw strictRefusal(unknown, options.strictVariable);
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

/** Strict's refusal: the CLI's words for `plan --strict`, each name with its suggestion. */
export function strictRefusal(unknown: UnknownName[], variable: string): SvcError {
  const n = unknown.length;
  const names = unknown
    .slice(0, 5)
    .map((name) => `${name.message}${name.suggestion ? ` (did you mean ${name.suggestion}?)` : ''}`);
  return new SvcError(
    'CONFIG_INVALID',
    `strict: the desired state names ${n} site${n === 1 ? '' : 's'} or slug${n === 1 ? '' : 's'} the dashboard does not know: ${names.join('; ')}`,
    { hint: `correct the names in the desired state and plan again (strict is on: ${variable})` },
  );
}

/**
 * Plan now, as the CLI plans: the rollout state beside the config is read (soak times and wave
 * gates count from its records), the health checks the wave gates need are made, and the state
 * is written once the plan is made.
 */
function planning(options: EngineOptions): Pick<GitopsEngine, 'plan'> {
  const { client, settings, fs, cwd, now } = options;
  return {
    async plan(request, signal) {
      const config = request.config === undefined ? undefined : insideWorkingDirectory(cwd, request.config);
      const loaded = await loadDesired({ cwd, fs, config, choice: toolChoice(cwd) });
      const desired = withProblems(loaded, () => requireDesired(loaded));
      const context: RolloutContext = { fs, cwd, now, signal };
      const planned = await planNow(client, {
        desired,
        lifetimeMinutes: settings.planLifetimeMinutes,
        now,
        signal,
        onWarning: options.onWarning,
        tokenVariable: options.tokenVariable,
        ...(request.targets?.length ? { targets: request.targets, targetLabel: 'target' } : {}),
        rollout: ({ live, targetSiteIds }) =>
          prepareRollout(context, {
            desired,
            live,
            client,
            configPath: loaded.configPath,
            overrideHealth: false,
            completeRead: targetSiteIds === undefined,
            checked: (wave, _count, _unhealthy, refused) => {
              if (refused.length > 0)
                options.onWarning(
                  `the dashboard answered ${refused.length} health check(s) of wave ${wave} with an error (first: ${refused[0]}); those sites count as unhealthy`,
                );
            },
          }),
      });
      await finishRollout(context, loaded.configPath, planned);
      const unknown = await judgeNames(
        { desired, live: planned.live, plan: planned.plan, client, targetSiteIds: planned.targetSiteIds },
        { strict: settings.strict, signal },
      );
      return {
        plan: planned.plan,
        live: planned.live,
        desired,
        configPath: loaded.configPath,
        ...(planned.rollout ? { rollout: planned.rollout } : {}),
        unknown,
      };
    },
  };
}
