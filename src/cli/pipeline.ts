import { homedir } from 'node:os';
import {
  type DashboardClient,
  loadDesired as loadDesiredState,
  loadSettings,
  openDashboard as openClient,
  type Planned as PlannedNow,
  planNow as planWith,
  renderDiagnosticsText,
  requireDesired,
  type Settings,
} from '../index.js';
import { terminalText } from '../render/index.js';
import type { DesiredState, PlanRollout } from '../types.js';
import { type CliContext, useColour } from './context.js';
import { createReadProgressPrinter } from './read-progress.js';
import { finishRollout, prepareRollout } from './rollout.js';

/**
 * The CLI's side of the shared front half of plan, apply, comment and drift: the engine does the
 * work (src/index.ts); this prints its diagnostics and warnings to stderr, keeping stdout free
 * for the command's own output, and supplies the context's environment, files and clock.
 */
export interface Planned extends PlannedNow {
  settings: Settings;
  client: DashboardClient;
  configPath: string;
  /** The sites `--target` named, ascending: only their updates and ignores were read. */
  targetSiteIds?: number[];
  /** The rollout state and plan-time health checks the plan was made with, if any. */
  rollout?: PlanRollout;
}

export interface PlanNowOptions {
  config?: string;
  /** Site IDs, domains or domain globs to restrict the plan to (`--target`). */
  targets?: string[];
  /** Ask the dashboard to re-sync the managed sites before reading. */
  refresh?: boolean;
  /** No progress lines while reading. */
  quiet?: boolean;
  /** Open wave gates whose health checks fail (`apply --override-health`); time gates hold. */
  overrideHealth?: boolean;
  /**
   * A preview (`plan --at`): the gates are judged at this moment, from what is known now; the
   * rollout state is not written. Apply never takes it.
   */
  at?: Date;
}

/** Prints a warning of the engine: it may quote the dashboard, so controls are neutralised. */
export function warner(ctx: CliContext): (message: string) => void {
  return (message) => ctx.stderr.write(`svc-gitops: warning: ${terminalText(message)}\n`);
}

export function openDashboard(
  ctx: CliContext,
  overrides?: Partial<Settings>,
): { settings: Settings; client: DashboardClient } {
  const loaded = loadSettings({
    env: ctx.env,
    cwd: ctx.cwd,
    fs: ctx.fs,
    homeDir: ctx.env.HOME ?? homedir(),
    ...(overrides === undefined ? {} : { overrides }),
  });
  ctx.addSecrets?.([loaded.settings.applicationPassword, loaded.settings.token]);
  for (const warning of loaded.warnings) ctx.stderr.write(`svc-gitops: warning: ${warning}\n`);
  // Ctrl-C: nothing waiting for a slot or the rate limiter goes out any more.
  const client = openClient(loaded.settings, {
    onWarning: warner(ctx),
    startSignal: ctx.signal,
    ...(ctx.timers ? { timers: ctx.timers } : {}),
  });
  // Said when the signal comes: the client's start gate is shut from the moment the signal
  // aborted, so `sent` is final here: no request leaves after this line.
  ctx.signal.addEventListener(
    'abort',
    () => {
      const { sent, inFlight } = client.stats();
      ctx.stderr.write(
        `svc-gitops: stopping: no new request starts; waiting for ${inFlight} in flight (${sent} sent)\n`,
      );
    },
    { once: true },
  );
  return { settings: loaded.settings, client };
}

/** Loads and validates the desired state; any error diagnostic stops here with CONFIG_INVALID. */
export async function loadDesired(
  ctx: CliContext,
  config?: string,
): Promise<{ desired: DesiredState; configPath: string }> {
  const load = await loadDesiredState({ cwd: ctx.cwd, fs: ctx.fs, config, signal: ctx.signal });
  if (load.diagnostics.length > 0) {
    ctx.stderr.write(renderDiagnosticsText(load.diagnostics, { colour: useColour(ctx, ctx.stderr) }));
  }
  return { desired: requireDesired(load), configPath: load.configPath };
}

export async function planNow(ctx: CliContext, options: PlanNowOptions): Promise<Planned> {
  const { desired, configPath } = await loadDesired(ctx, options.config);
  const { settings, client } = openDashboard(ctx);
  try {
    const planned = await planWith(client, {
      desired,
      targets: options.targets,
      refresh: options.refresh,
      signal: ctx.signal,
      onWarning: warner(ctx),
      readProgress: () =>
        createReadProgressPrinter(ctx.stderr, ctx.timers?.now ?? (() => ctx.now().getTime()), {
          quiet: options.quiet === true,
          ...(settings.rateLimit === undefined ? {} : { rateLimit: settings.rateLimit }),
          ...(ctx.timers ? { every: ctx.timers.every } : {}),
        }),
      now: options.at ? () => options.at as Date : ctx.now,
      lifetimeMinutes: settings.planLifetimeMinutes,
      rollout: ({ live, targetSiteIds }) =>
        prepareRollout(ctx, desired, live, client, configPath, {
          overrideHealth: options.overrideHealth === true,
          // A targeted read lists only the targeted sites' updates: no recorded version is dropped.
          completeRead: targetSiteIds === undefined,
          at: options.at,
        }),
    });
    // A preview records nothing: its moment has not come.
    if (!options.at) finishRollout(ctx, configPath, planned);
    const { live, targetSiteIds } = planned;
    const scope = targetSiteIds ? ` (updates and ignores of ${targetSiteIds.length} targeted)` : '';
    ctx.stderr.write(
      `Read ${live.sites.length} sites${scope}, ${live.pending.length} pending updates and ${live.ignores.length} ignores from ${live.dashboardUrl} (${live.capabilities.surface}).\n`,
    );
    return { ...planned, settings, client, configPath };
  } catch (error) {
    await client.close();
    throw error;
  }
}
