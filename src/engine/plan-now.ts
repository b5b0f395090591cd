import type { Planned } from '../apply/index.js';
import type { DashboardClient, ReadProgress } from '../dashboard/index.js';
import { isSvcError, SvcError } from '../errors.js';
import { compileSelection, createPlan, type PlanOptions, selectorNeeds } from '../plan/index.js';
import { safeText } from '../render/index.js';
import type { DesiredState, LiveState, PlanRollout, Site } from '../types.js';
import { readInstalledForPlan } from './installed-read.js';
import { resolveTargets } from './targets.js';

export interface ReadLiveOptions {
  desired: DesiredState;
  /** Site IDs, domains or domain globs to restrict the plan to (`--target`); each must match. */
  targets?: readonly string[] | undefined;
  /** Ask the dashboard to re-sync the managed (and targeted) sites before reading. */
  refresh?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** A site that did not re-sync (the read goes on with what the dashboard has). */
  onWarning?: ((message: string) => void) | undefined;
  /** Called at the start of each read (two with `refresh`): its progress, and its end. */
  readProgress?: (() => ReadProgressSink) | undefined;
}

export interface ReadProgressSink {
  onProgress: (progress: ReadProgress) => void;
  finish(): void;
}

export interface LiveRead {
  live: LiveState;
  /** The sites `targets` named, ascending; absent without targets. */
  targetSiteIds?: number[];
}

/**
 * The dashboard's live state, complete or not at all (a read that fails throws). `targets` are
 * resolved against the site listing as soon as it is read (USAGE when one names none), and the
 * client then reads only the targeted sites' updates and ignores where that is cheaper; with
 * `refresh` the managed sites are re-synced first and the state read again.
 */
export async function readLive(client: DashboardClient, options: ReadLiveOptions): Promise<LiveRead> {
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const targets = options.targets?.length ? options.targets : undefined;
  let targetSiteIds: number[] | undefined;
  const groups = selectorNeeds(options.desired);
  const read = async (): Promise<LiveState> => {
    const progress = options.readProgress?.();
    try {
      return await client.readLive({
        ...signal,
        ...(progress ? { onProgress: progress.onProgress } : {}),
        ...(groups ? { groups } : {}),
        ...(targets
          ? {
              selectSites: (sites: readonly Site[]) => (targetSiteIds = resolveTargets(targets, sites)),
            }
          : {}),
      });
    } catch (error) {
      // The client says how far the read got; nothing was planned from it.
      throw isSvcError(error) && error.code === 'INTERRUPTED'
        ? new SvcError('INTERRUPTED', `${error.message}; nothing was planned or changed`, {
            details: error.details,
            cause: error,
          })
        : error;
    } finally {
      progress?.finish();
    }
  };
  let live = await read();
  if (options.refresh) {
    const targeted = targetSiteIds && new Set(targetSiteIds);
    const selects = compileSelection(options.desired.sites);
    const managed = live.sites.filter((site) => selects(site) && (!targeted || targeted.has(site.id)));
    const synced = await client.syncSites(
      managed.map((site) => site.id),
      signal,
    );
    for (const failure of synced.failed) {
      options.onWarning?.(
        `site ${failure.siteId} did not sync: ${safeText(failure.message)} (${safeText(failure.code)})`,
      );
    }
    live = await read();
  }
  return targetSiteIds === undefined ? { live } : { live, targetSiteIds };
}

export interface PlanNowOptions extends ReadLiveOptions {
  /** The clock (default: the system's): the plan is made when the read has finished. */
  now?: (() => Date) | undefined;
  /** How long the plan may be applied (the setting `planLifetimeMinutes`). */
  lifetimeMinutes: number;
  /**
   * The rollout inputs for this read (the recorded state, plan-time health checks), made by the
   * caller, which keeps the state file: windows, soak times and wave gates decide with them.
   */
  rollout?: ((read: LiveRead) => Promise<PlanRollout | undefined>) | undefined;
  /** See PlanOptions.tokenVariable. */
  tokenVariable?: string | undefined;
  /**
   * The vulnerability feed's advisories (`loadSecurityFeed`), when the desired state names one;
   * or a loader called with the live state once it is read (`prepareSecurityFeed`).
   */
  security?: PlanOptions['security'] | ((live: LiveState) => Promise<PlanOptions['security']>) | undefined;
}

/** A plan made now, and the sites `targets` named. */
export interface PlannedNow extends Planned {
  targetSiteIds?: number[];
  /** The rollout inputs the plan was made with, if any. */
  rollout?: PlanRollout;
}

/** Reads the live state (`readLive`) and plans the desired state against it (pure `createPlan`). */
export async function planNow(client: DashboardClient, options: PlanNowOptions): Promise<PlannedNow> {
  const read = await readLive(client, options);
  await readInstalledForPlan(client, options.desired, read, options);
  const { live, targetSiteIds } = read;
  // Before the rollout's plan-time health checks: a refused feed costs no more calls.
  const security = typeof options.security === 'function' ? await options.security(live) : options.security;
  const rollout = await options.rollout?.(read);
  const plan = createPlan(options.desired, live, {
    now: (options.now ?? (() => new Date()))(),
    lifetimeMinutes: options.lifetimeMinutes,
    ...(targetSiteIds === undefined ? {} : { targetSiteIds }),
    ...(rollout === undefined ? {} : { rollout }),
    ...(options.tokenVariable === undefined ? {} : { tokenVariable: options.tokenVariable }),
    ...(security === undefined ? {} : { security }),
  });
  return {
    desired: options.desired,
    live,
    plan,
    ...(targetSiteIds === undefined ? {} : { targetSiteIds }),
    ...(rollout === undefined ? {} : { rollout }),
  };
}
