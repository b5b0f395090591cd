import type * as nodeFs from 'node:fs';
import * as realFs from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  type ApplyReport,
  applyReport,
  approveSaved,
  type DashboardClient,
  type DesiredState,
  type Diagnostic,
  finishRollout,
  type LiveState,
  loadDesired,
  type Plan,
  planNow,
  plannedCalls,
  prepareRollout,
  type RolloutContext,
  recordApply,
  refusalError,
  requireDesired,
  runApproved,
  type Settings,
  SvcError,
  statePaths,
  type VariableOf,
} from '../../index.js';
import { renderApplyCalls } from '../../render/index.js';
import type { PlanRollout } from '../../types.js';

/**
 * The GitOps half of the tool server on the engine library (src/index.ts), behind one small
 * interface: validate, plan now, apply a plan the way a saved plan is applied (approveSaved:
 * integrity, expiry, dashboard, safe mode; runApproved: lock, single use, touched sites
 * unchanged, journal), and the calls apply would send.
 */
export interface GitopsEngine {
  validate(source: DesiredSource): Promise<Validated>;
  plan(request: PlanRequest, signal: AbortSignal): Promise<Planned>;
  apply(planned: Planned, signal: AbortSignal): Promise<ApplyReport>;
  describeCalls(planned: Planned): Promise<string>;
}

/** A desired-state path inside the working directory, or YAML text. */
export type DesiredSource = { path?: string; yaml?: string };

export interface Validated {
  /** The path as given (or the name the YAML text was checked under). */
  source: string;
  desired?: DesiredState;
  diagnostics: Diagnostic[];
}

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
  /** How a refused plan's hint says to plan again, in this server's words (see CLI_REPLAN). */
  replan: string;
  onWarning: (message: string) => void;
}

/** Shown instead of the temporary file that holds YAML text while it is validated. */
const TEXT_SOURCE = 'desired-state.yaml';

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

    async apply(planned, signal) {
      const decision = approveSaved(planned.plan, {
        dashboardUrl: client.url,
        safeMode: settings.safeMode,
        variable: options.variable,
        replan: options.replan,
        now: now(),
        config: { path: planned.configPath, desired: planned.desired },
      });
      if (decision.kind === 'refused') throw refusalError(decision);
      if (decision.kind !== 'approved')
        throw new SvcError('INTERNAL', `a saved-plan approval ended ${decision.kind}`);
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
      recordApply({ fs, cwd, now, signal }, planned.desired, planned.configPath, result);
      return applyReport(decision, result, client.url, warnings);
    },

    async describeCalls(planned) {
      const decision = approveSaved(planned.plan, {
        dashboardUrl: client.url,
        safeMode: false,
        variable: options.variable,
        replan: options.replan,
        now: now(),
        config: { path: planned.configPath, desired: planned.desired },
      });
      if (decision.kind === 'refused') throw refusalError(decision);
      if (decision.kind !== 'approved') return '';
      return renderApplyCalls(plannedCalls(decision, await client.capabilities()), client.url);
    },
  };
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
      finishRollout(context, loaded.configPath, planned);
      return {
        plan: planned.plan,
        live: planned.live,
        desired,
        configPath: loaded.configPath,
        ...(planned.rollout ? { rollout: planned.rollout } : {}),
      };
    },
  };
}

/**
 * A path the agent names must stay inside the working directory: the tool server reads the
 * desired state of the repository it was started in, never any file of the machine.
 */
function insideWorkingDirectory(cwd: string, path: string, alternative = ''): string {
  const full = resolve(cwd, path);
  const rel = relative(cwd, full);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new SvcError('USAGE', `${path} is outside the working directory`, {
      hint: `give a path inside the directory the tool server was started in${alternative ? `, ${alternative}` : ''}`,
    });
  }
  return rel === '' ? '.' : rel;
}

/** Problems a tool answer shows at once (the validate tool lists every one). */
const PROBLEMS_SHOWN = 3;

/**
 * The CLI prints a desired state's problems before its "N error(s)" refusal; a tool's caller sees
 * only the refusal, so it carries the first problems with their places.
 */
/** The config hints in a tool's words: its argument, and the server's directory it is relative to. */
function toolChoice(cwd: string): { how: string; create: string } {
  return {
    how: 'the config argument (a path inside that directory)',
    create: `the tool server works in ${cwd} (its operator sets it with --chdir DIR): create svc-gitops.yaml there`,
  };
}

function withProblems<T>(loaded: { diagnostics: Diagnostic[] }, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof SvcError) || error.code !== 'CONFIG_INVALID') throw error;
    const problems = loaded.diagnostics
      .filter((d) => d.severity === 'error')
      .slice(0, PROBLEMS_SHOWN)
      .map((d) => `${d.file ?? ''}${d.line ? `:${d.line}:${d.col ?? 1}` : ''}: ${d.message}`);
    throw new SvcError('CONFIG_INVALID', `${error.message}: ${problems.join('; ')}`, {
      hint: 'fix them; the validate tool lists every problem with its file:line:col and a hint',
    });
  }
}

/** YAML text is validated as a file of its own in a temporary directory, removed afterwards. */
async function validateText(yaml: string): Promise<Validated> {
  const dir = realFs.mkdtempSync(join(tmpdir(), 'svc-gitops-mcp-'));
  try {
    realFs.writeFileSync(join(dir, TEXT_SOURCE), yaml);
    const loaded = await loadDesired({ cwd: dir, fs: realFs, config: TEXT_SOURCE });
    return {
      source: TEXT_SOURCE,
      diagnostics: loaded.diagnostics,
      ...(loaded.desired ? { desired: loaded.desired } : {}),
    };
  } finally {
    realFs.rmSync(dir, { recursive: true, force: true });
  }
}
