import { homedir } from 'node:os';
import { loadDesiredState, resolveConfigPath } from '../config/index.js';
import { createDashboardClient, type DashboardClient } from '../dashboard/index.js';
import { SvcError } from '../errors.js';
import { compileSelection, compileSelections, createPlan } from '../plan/index.js';
import { countDiagnostics, renderDiagnosticsText } from '../render/diagnostics.js';
import { safeText, terminalText } from '../render/safe-text.js';
import { loadSettings, type Settings } from '../settings/index.js';
import type { DesiredState, LiveState, Plan, Site, SiteMatcher } from '../types.js';
import { type CliContext, useColour } from './context.js';
import { createReadProgressPrinter } from './read-progress.js';

/**
 * The shared front half of plan, apply, comment and drift: settings → client, YAML → desired
 * state, dashboard → live state, then the pure planner. Diagnostics and warnings go to stderr;
 * stdout stays free for the command's own output.
 */
export interface Planned {
  settings: Settings;
  client: DashboardClient;
  desired: DesiredState;
  live: LiveState;
  plan: Plan;
  configPath: string;
}

export interface PlanNowOptions {
  config?: string;
  /** Site IDs, domains or domain globs to restrict the plan to (`--target`). */
  targets?: string[];
  /** Ask the dashboard to re-sync the managed sites before reading. */
  refresh?: boolean;
  /** No progress lines while reading. */
  quiet?: boolean;
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
  if (loaded.settings.dashboardUrl === '') {
    throw new SvcError('SETTINGS_INVALID', 'no dashboard configured', {
      hint: 'set SVC_URL and credentials (or dashboardUrl in settings.json); to try svc-gitops without a dashboard run `svc-gitops sandbox` and use the SVC_* lines it prints',
    });
  }
  checkCredentials(loaded.settings);
  const client = createDashboardClient(loaded.settings, {
    onWarning: (message) => ctx.stderr.write(`svc-gitops: warning: ${terminalText(message)}\n`),
  });
  return { settings: loaded.settings, client };
}

/**
 * Every dashboard call needs a login: without one the dashboard's refusal would be the only
 * message (and it cannot say what is missing), so say it before any request.
 */
function checkCredentials(settings: Settings): void {
  if (settings.token || (settings.username && settings.applicationPassword)) return;
  const message =
    settings.username && !settings.applicationPassword
      ? 'a username is set (SVC_USER or the settings file) but no application password (and no REST token)'
      : settings.applicationPassword && !settings.username
        ? 'an application password is set (SVC_APP_PASSWORD or the settings file) but no username (and no REST token)'
        : 'no dashboard credentials configured';
  throw new SvcError('SETTINGS_INVALID', message, {
    hint: 'set SVC_USER and SVC_APP_PASSWORD (the abilities API), or SVC_TOKEN (REST API v2 only); or username, applicationPassword, token in settings.json',
  });
}

/** Loads and validates the desired state; any error diagnostic stops here with CONFIG_INVALID. */
export async function loadDesired(
  ctx: CliContext,
  config?: string,
): Promise<{ desired: DesiredState; configPath: string }> {
  const configPath = resolveConfigPath(ctx.fs, ctx.cwd, config);
  const { desired, diagnostics } = await loadDesiredState({ path: configPath, fs: ctx.fs, cwd: ctx.cwd });
  if (diagnostics.length > 0) {
    ctx.stderr.write(renderDiagnosticsText(diagnostics, { colour: useColour(ctx, ctx.stderr) }));
  }
  if (!desired) {
    const { errors } = countDiagnostics(diagnostics);
    throw new SvcError('CONFIG_INVALID', `${configPath}: ${errors} error(s) in the desired state`, {
      hint: `fix them and check with \`svc-gitops validate -c ${configPath}\``,
    });
  }
  return { desired, configPath };
}

export async function planNow(ctx: CliContext, options: PlanNowOptions): Promise<Planned> {
  const { desired, configPath } = await loadDesired(ctx, options.config);
  const { settings, client } = openDashboard(ctx);
  try {
    // --target by domain or glob needs the site listing: the client reads it first, then only
    // the targeted sites' updates and ignores where that is cheaper.
    let targetSiteIds: number[] | undefined;
    const targets = options.targets?.length ? options.targets : undefined;
    const read = async () => {
      const progress = createReadProgressPrinter(ctx.stderr, () => ctx.now().getTime(), {
        quiet: options.quiet === true,
      });
      try {
        return await client.readLive({
          signal: ctx.signal,
          onProgress: progress.onProgress,
          ...(targets
            ? { selectSites: (sites: readonly Site[]) => (targetSiteIds = resolveTargets(targets, sites)) }
            : {}),
        });
      } finally {
        progress.finish();
      }
    };
    let live = await read();
    if (options.refresh) {
      const targeted = targetSiteIds && new Set(targetSiteIds);
      const selects = compileSelection(desired.sites);
      const managed = live.sites.filter((site) => selects(site) && (!targeted || targeted.has(site.id)));
      const synced = await client.syncSites(
        managed.map((site) => site.id),
        { signal: ctx.signal },
      );
      for (const failure of synced.failed) {
        ctx.stderr.write(
          `svc-gitops: warning: site ${failure.siteId} did not sync: ${safeText(failure.message)} (${safeText(failure.code)})\n`,
        );
      }
      live = await read();
    }
    const scope = targetSiteIds ? ` (updates and ignores of ${targetSiteIds.length} targeted)` : '';
    ctx.stderr.write(
      `Read ${live.sites.length} sites${scope}, ${live.pending.length} pending updates and ${live.ignores.length} ignores from ${live.dashboardUrl} (${live.capabilities.surface}).\n`,
    );
    const plan = createPlan(desired, live, {
      now: ctx.now(),
      lifetimeMinutes: settings.planLifetimeMinutes,
      ...(targetSiteIds === undefined ? {} : { targetSiteIds }),
    });
    return { settings, client, desired, live, plan, configPath };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** `--target` values: numeric IDs, domains or domain globs; each must name at least one site. */
export function resolveTargets(targets: readonly string[], sites: readonly Site[]): number[] {
  const matchers = targets.map(
    (target): SiteMatcher =>
      /^\d+$/.test(target)
        ? { type: 'id', id: Number(target) }
        : /[*?]/.test(target)
          ? { type: 'glob', pattern: target }
          : { type: 'domain', domain: target },
  );
  // All targets at once: a long list (thousands of IDs) is not a scan of the fleet per target.
  const selecting = compileSelections(matchers.map((matcher) => ({ include: [matcher], exclude: [] })));
  const ids = new Set<number>();
  const matched = new Array<boolean>(targets.length).fill(false);
  for (const site of sites) {
    const positions = selecting(site);
    if (positions.length > 0) ids.add(site.id);
    for (const position of positions) matched[position] = true;
  }
  const unmatched = matched.indexOf(false);
  if (unmatched >= 0) {
    const target = targets[unmatched] as string;
    // `--target` takes every value after it: a plan file written after it lands here.
    const hint = /\.json$/i.test(target)
      ? `--target takes every value after it: put the plan file first (svc-gitops apply ${target} …) or end the list with --`
      : 'give a site ID, a domain such as shop.example.com, or a glob such as "*.example.com"';
    throw new SvcError('USAGE', `--target ${target} matches no site of the dashboard`, { hint });
  }
  return [...ids].sort((a, b) => a - b);
}
