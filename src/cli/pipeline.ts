import { homedir } from 'node:os';
import {
  type DashboardClient,
  loadSettings,
  openDashboard as openClient,
  openSession,
  renderDiagnosticsText,
  SECRET_KEYS,
  type Session,
  type SessionEvents,
  type Settings,
  stateDirOf,
} from '../index.js';
import { terminalText } from '../render/index.js';
import { type CliContext, useColour } from './context.js';
import { createCountProgressPrinter } from './count-progress.js';
import { createReadProgressPrinter } from './read-progress.js';

/**
 * The CLI's side of the engine's session (src/engine/session.ts does the work): settings from
 * the context's environment, and what the session reports printed on stderr, keeping stdout
 * free for the command's own output.
 */

/** Prints a warning of the engine: it may quote the dashboard, so controls are neutralised. */
export function warner(ctx: CliContext): (message: string) => void {
  return (message) => ctx.stderr.write(`svc-gitops: warning: ${terminalText(message)}\n`);
}

/** The connection settings of the context's environment; their credentials join the output mask. */
export function cliSettings(ctx: CliContext, overrides?: Partial<Settings>): Settings {
  const loaded = loadSettings({
    env: ctx.env,
    cwd: ctx.cwd,
    fs: ctx.fs,
    homeDir: ctx.env.HOME ?? homedir(),
    ...(overrides === undefined ? {} : { overrides }),
  });
  ctx.addSecrets?.(SECRET_KEYS.map((key) => loaded.settings[key]).filter((v) => typeof v === 'string'));
  for (const warning of loaded.warnings) ctx.stderr.write(`svc-gitops: warning: ${warning}\n`);
  return loaded.settings;
}

/** A client of its own, for the commands that only read (import). */
export function openDashboard(ctx: CliContext): { settings: Settings; client: DashboardClient } {
  const settings = cliSettings(ctx);
  const client = openClient(settings, {
    onWarning: warner(ctx),
    startSignal: ctx.signal,
    ...(ctx.timers ? { timers: ctx.timers } : {}),
  });
  sayWhenStopping(ctx, client);
  return { settings, client };
}

/**
 * Said when the signal comes: the client's start gate is shut from the moment the signal
 * aborted, so `sent` is final here: no request leaves after this line.
 */
function sayWhenStopping(ctx: CliContext, client: Pick<DashboardClient, 'stats'>): void {
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
}

/** The session a command runs its use cases through, and the settings it loaded when it needed them. */
export interface CliSession extends Session {
  settings(): Settings;
}

/** The session a command runs its use cases through; `quiet`: no progress lines. */
export function cliSession(ctx: CliContext, options: { quiet?: boolean | undefined } = {}): CliSession {
  let settings: Settings | undefined;
  const loaded = () => {
    settings ??= cliSettings(ctx);
    return settings;
  };
  const session = openSession({
    settings: loaded,
    fs: ctx.fs,
    cwd: ctx.cwd,
    stateDir: stateDirOf(ctx.env),
    now: ctx.now,
    signal: ctx.signal,
    ...(ctx.timers ? { timers: ctx.timers } : {}),
    on: cliEvents(ctx, loaded, options.quiet === true),
  });
  return { ...session, settings: loaded };
}

function cliEvents(ctx: CliContext, settings: () => Settings, quiet: boolean): SessionEvents {
  const clock = ctx.timers?.now ?? (() => ctx.now().getTime());
  return {
    warning: warner(ctx),
    diagnostics: (diagnostics) =>
      ctx.stderr.write(renderDiagnosticsText(diagnostics, { colour: useColour(ctx, ctx.stderr) })),
    reading: () => {
      const { rateLimit } = settings();
      return createReadProgressPrinter(ctx.stderr, clock, {
        quiet,
        ...(rateLimit === undefined ? {} : { rateLimit }),
        ...(ctx.timers ? { every: ctx.timers.every } : {}),
      });
    },
    read: ({ live, targetSiteIds }) => {
      const scope = targetSiteIds ? ` (updates and ignores of ${targetSiteIds.length} targeted)` : '';
      ctx.stderr.write(
        `Read ${live.sites.length} sites${scope}, ${live.pending.length} pending updates and ${live.ignores.length} ignores from ${live.dashboardUrl} (${live.capabilities.surface}).\n`,
      );
    },
    checking: (wave) =>
      createCountProgressPrinter(
        ctx.stderr,
        () => ctx.now().getTime(),
        `health: checking wave ${wave} at plan time, sites`,
      ),
    checked: (wave, count, unhealthy, refused) => {
      ctx.stderr.write(
        `Checked the health of ${count} site(s) of wave ${wave}: ${unhealthy.length === 0 ? 'healthy' : `${unhealthy.length} unhealthy`}.\n`,
      );
      if (refused.length > 0) {
        ctx.stderr.write(
          `svc-gitops: warning: the dashboard answered ${refused.length} health check(s) of wave ${wave} with an error (first: ${terminalText(refused[0] ?? '')}); those sites count as unhealthy\n`,
        );
      }
    },
    searching: () =>
      createCountProgressPrinter(
        ctx.stderr,
        () => ctx.now().getTime(),
        'reading installed plugins and themes: sites',
        { quiet },
      ),
    recorded: (path) =>
      ctx.stderr.write(`Recorded the rollout state in ${path} (commit it with the desired state).\n`),
    opened: (client) => sayWhenStopping(ctx, client),
  };
}
