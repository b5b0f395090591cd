import type * as nodeFs from 'node:fs';
import * as realFs from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import {
  checkIntegrity,
  checkLiveUnchanged,
  checkNotExpired,
  checkSafeMode,
  checkSameDashboard,
} from '../../apply/guard.js';
import { applyPlan, batchPlan, DASHBOARD_UNREACHABLE } from '../../apply/index.js';
import { completedUpdates, openJournal, readJournal } from '../../apply/journal.js';
import { withApplyLock } from '../../apply/session.js';
import { statePaths } from '../../apply/state-dir.js';
import { skipCompleted } from '../../apply/subset.js';
import { alreadyUsed, isPlanUsed, markPlanUsed } from '../../apply/used-plans.js';
import { waveLimits } from '../../apply/wave-limits.js';
import { resolveTargets } from '../../cli/pipeline.js';
import { loadDesiredState, resolveConfigPath } from '../../config/index.js';
import type { DashboardClient, ReadLiveOptions } from '../../dashboard/index.js';
import { type Diagnostic, SvcError } from '../../errors.js';
import { createPlan } from '../../plan/index.js';
import { renderApplyCalls } from '../../render/apply-calls.js';
import type { ApplyReport } from '../../render/apply-report.js';
import type { Settings } from '../../settings/index.js';
import type { DesiredState, LiveState, Plan } from '../../types.js';

/**
 * The GitOps half of the tool server, behind one small interface so the tools do not care how
 * the engine is put together: validate, plan now, apply a plan the way a saved plan is applied
 * (integrity, expiry, dashboard, safe mode, single use, touched sites unchanged, under the
 * apply lock with the journal), and the calls apply would send.
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
  /** The path as given (or `(yaml text)`). */
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
}

export interface EngineOptions {
  client: DashboardClient;
  settings: Settings;
  fs: typeof nodeFs;
  cwd: string;
  now: () => Date;
  /** Journal, lock and used plans, as the CLI keeps them (`.svc-gitops/`). */
  stateDir: string;
  onWarning: (message: string) => void;
}

/** Shown instead of the temporary file that holds YAML text while it is validated. */
const TEXT_SOURCE = 'desired-state.yaml';

export function createEngine(options: EngineOptions): GitopsEngine {
  const { client, settings, fs, cwd, now } = options;
  return {
    async validate(source) {
      if (source.yaml !== undefined) return validateText(source.yaml);
      const path =
        source.path === undefined
          ? resolveConfigPath(fs, cwd, undefined)
          : insideWorkingDirectory(cwd, source.path);
      const loaded = await loadDesiredState({ path, fs, cwd });
      return {
        source: path,
        diagnostics: loaded.diagnostics,
        ...(loaded.desired ? { desired: loaded.desired } : {}),
      };
    },

    async plan(request, signal) {
      const configPath = resolveConfigPath(
        fs,
        cwd,
        request.config === undefined ? undefined : insideWorkingDirectory(cwd, request.config),
      );
      const { desired, diagnostics } = await loadDesiredState({ path: configPath, fs, cwd });
      if (!desired) {
        const errors = diagnostics.filter((d) => d.severity === 'error').length;
        throw new SvcError('CONFIG_INVALID', `${configPath}: ${errors} error(s) in the desired state`, {
          hint: 'run the validate tool on it to see each error with its file:line:col',
          details: { diagnostics: diagnostics.slice(0, 20) },
        });
      }
      const live = await client.readLive({ signal });
      const targetSiteIds = request.targets?.length ? resolveTargets(request.targets, live.sites) : undefined;
      const plan = createPlan(desired, live, {
        now: now(),
        lifetimeMinutes: settings.planLifetimeMinutes,
        ...(targetSiteIds === undefined ? {} : { targetSiteIds }),
      });
      return { plan, live, desired, configPath };
    },

    async apply(planned, signal) {
      const { plan } = planned;
      checkIntegrity(plan);
      checkNotExpired(plan, now());
      checkSameDashboard(plan, client.url);
      checkSafeMode(plan.actions, settings.safeMode);
      const paths = statePaths(resolve(cwd, options.stateDir), client.url, resolve(cwd, planned.configPath));
      const warnings: string[] = [];
      const warn = (message: string) => {
        warnings.push(message);
        options.onWarning(message);
      };
      let verificationError: ApplyReport['verificationError'];
      let verificationSkipped: ApplyReport['verificationSkipped'];
      let unreachable: ApplyReport['unreachable'];
      const result = await withApplyLock(fs, paths, now(), warn, async () => {
        if (isPlanUsed(fs, paths.usedPlans, plan.id)) throw alreadyUsed(plan.id);
        const reader = { readLive: (o?: ReadLiveOptions) => client.readLive({ ...o, signal }) };
        const { capabilities } = await checkLiveUnchanged(plan, reader);
        markPlanUsed(fs, paths.usedPlans, plan.id, now());
        const completed = completedUpdates(readJournal(fs, paths.journal));
        const journal = openJournal(fs, paths.journal);
        try {
          return await applyPlan(plan, {
            client,
            live: { capabilities },
            settings,
            signal,
            journal,
            maxFailures: waveLimits(planned.desired),
            holdBack: skipCompleted(completed),
            now,
            onEvent: (event) => {
              if (event.type === 'verify-failed')
                verificationError = { code: event.code, message: event.message };
              if (event.type === 'verify-skipped')
                verificationSkipped = { code: event.code, message: event.message };
              if (event.type === 'stopped' && event.code === DASHBOARD_UNREACHABLE)
                unreachable = { message: event.message };
            },
          });
        } finally {
          journal.close();
        }
      });
      return {
        result,
        dashboard: client.url,
        approval: 'prompt',
        ...(verificationError ? { verificationError } : {}),
        ...(verificationSkipped ? { verificationSkipped } : {}),
        ...(unreachable ? { unreachable } : {}),
        warnings,
      };
    },

    async describeCalls(planned) {
      const capabilities = await client.capabilities();
      return renderApplyCalls(batchPlan(planned.plan.actions, capabilities.queueThreshold), client.url);
    },
  };
}

/**
 * A path the agent names must stay inside the working directory: the tool server reads the
 * desired state of the repository it was started in, never any file of the machine.
 */
function insideWorkingDirectory(cwd: string, path: string): string {
  const full = resolve(cwd, path);
  const rel = relative(cwd, full);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new SvcError('USAGE', `${path} is outside the working directory`, {
      hint: 'give a path inside the directory the tool server was started in, or pass the YAML as text',
    });
  }
  return rel === '' ? '.' : rel;
}

/** YAML text is validated as a file of its own in a temporary directory, removed afterwards. */
async function validateText(yaml: string): Promise<Validated> {
  const dir = realFs.mkdtempSync(join(tmpdir(), 'svc-gitops-mcp-'));
  try {
    realFs.writeFileSync(join(dir, TEXT_SOURCE), yaml);
    const loaded = await loadDesiredState({ path: TEXT_SOURCE, fs: realFs, cwd: dir });
    return {
      source: TEXT_SOURCE,
      diagnostics: loaded.diagnostics,
      ...(loaded.desired ? { desired: loaded.desired } : {}),
    };
  } finally {
    realFs.rmSync(dir, { recursive: true, force: true });
  }
}
