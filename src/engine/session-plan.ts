import { resolve } from 'node:path';
import { DEFAULT_STATE_DIR } from '../apply/index.js';
import type { DashboardClient } from '../dashboard/index.js';
import type { Settings } from '../settings/index.js';
import { loadDesired, requireDesired } from './desired.js';
import { judgeNames } from './judge-names.js';
import { refusalsBeforeMerge } from './merge-refusals.js';
import { planNow } from './plan-now.js';
import { finishRollout, prepareRollout, type RolloutContext } from './rollout.js';
import { prepareSecurityFeed } from './security.js';
import type { PlanRequest, SessionEvents, SessionOptions, SessionPlan } from './session-types.js';
import type { UnknownName } from './unknown-names.js';

/** What the plan use case needs of its session. */
export interface PlanDeps {
  options: SessionOptions;
  events: SessionEvents;
  settings: () => Settings;
  client: () => DashboardClient;
}

/**
 * The plan use case every front end shares: the desired state (its problems reported, errors
 * refused), the live read, the rollout state read with the plan-time health checks its gates
 * need, the plan, the rollout state written (not for a preview), the unknown names (the
 * installed items read under strict), and the refusals the merge-time apply would meet.
 */
export async function planUseCase(deps: PlanDeps, request: PlanRequest): Promise<SessionPlan> {
  const { options, events } = deps;
  const { fs, cwd, signal } = options;
  const load = await loadDesired({ cwd, fs, config: request.config, signal, choice: options.configChoice });
  if (load.diagnostics.length > 0) events.diagnostics?.(load.diagnostics);
  const desired = requireDesired(load);
  const { configPath } = load;
  const settings = deps.settings();
  // The feed is read after the dashboard, keeping only the fleet's items; a missing file or
  // API key is refused here, before any dashboard call.
  const security = prepareSecurityFeed(desired, {
    stateDir: resolve(cwd, options.stateDir ?? DEFAULT_STATE_DIR),
    apiKey: settings.feedApiKey,
    now: options.now(),
    signal,
    onWarning: events.warning,
  });
  const client = deps.client();
  const context = rolloutContext(options, events);
  const planned = await planNow(client, {
    desired,
    security,
    targets: request.targets,
    refresh: request.refresh,
    signal,
    onWarning: events.warning,
    readProgress: events.reading,
    now: request.at ? () => request.at as Date : options.now,
    lifetimeMinutes: settings.planLifetimeMinutes,
    tokenVariable: options.tokenVariable,
    rollout: ({ live, targetSiteIds }) =>
      prepareRollout(context, {
        desired,
        live,
        client,
        configPath,
        overrideHealth: request.overrideHealth === true,
        // A targeted read lists only the targeted sites' updates: no recorded version is dropped.
        completeRead: targetSiteIds === undefined,
        at: request.at,
        checking: events.checking,
        checked: events.checked,
      }),
  });
  // A preview records nothing: its moment has not come.
  if (!request.at) {
    const path = await finishRollout(context, configPath, planned);
    if (path !== undefined) events.recorded?.(path);
  }
  events.read?.(planned);
  const strict = request.strict === true || settings.strict;
  const unknown = await judge(deps, planned, strict);
  const refusals = refusalsBeforeMerge(planned.plan, { safeMode: settings.safeMode, strict }, unknown);
  return { ...planned, configPath, strict, unknown, refusals, ...(request.at ? { at: request.at } : {}) };
}

export function rolloutContext(options: SessionOptions, events: SessionEvents): RolloutContext {
  const { fs, cwd, now, signal, timers } = options;
  return { fs, cwd, now, signal, timers, onWarning: events.warning };
}

/** The names the dashboard does not know; under strict the installed items' read is reported. */
async function judge(
  deps: PlanDeps,
  planned: Omit<SessionPlan, 'configPath' | 'strict' | 'unknown' | 'refusals'>,
  strict: boolean,
): Promise<UnknownName[]> {
  let progress: ReturnType<NonNullable<SessionEvents['searching']>> | undefined;
  try {
    return await judgeNames(
      { ...planned, client: deps.client() },
      {
        strict,
        signal: deps.options.signal,
        onProgress: (read, sites) => {
          progress ??= deps.events.searching?.();
          progress?.onProgress(read, sites);
        },
      },
    );
  } finally {
    progress?.finish();
  }
}
