import {
  createDashboardClient,
  type DashboardClient,
  type DashboardClientOptions,
} from '../dashboard/index.js';
import { SvcError } from '../errors.js';
import type { Settings } from '../settings/index.js';

export interface OpenDashboardOptions {
  /** Told what the person should know (certificate checks off, a surface's limits); the work goes on. */
  onWarning?: ((message: string) => void) | undefined;
  /** Once aborted (Ctrl-C), no request leaves that has not left yet (DashboardClientOptions). */
  startSignal?: AbortSignal | undefined;
  /** The clock and waits the client paces by (DashboardClientOptions). */
  timers?: DashboardClientOptions['timers'] | undefined;
}

/**
 * A client for the configured dashboard. Every dashboard call needs an address and a login:
 * without them the dashboard's refusal would be the only message (and it cannot say what is
 * missing), so SETTINGS_INVALID says it before any request. The caller closes the client.
 */
export function openDashboard(settings: Settings, options: OpenDashboardOptions = {}): DashboardClient {
  if (settings.dashboardUrl === '') {
    throw new SvcError('SETTINGS_INVALID', 'no dashboard configured', {
      details: { reason: 'no-dashboard' },
    });
  }
  checkCredentials(settings);
  return createDashboardClient(settings, {
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    ...(options.startSignal ? { startSignal: options.startSignal } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
}

/**
 * Which half of the login is missing, as `details.set`: the setting that is there without its
 * partner (`username`, `applicationPassword`), or none. Each front end names its own variables.
 */
function checkCredentials(settings: Settings): void {
  if (settings.token || (settings.username && settings.applicationPassword)) return;
  const set = settings.username
    ? 'username'
    : settings.applicationPassword
      ? 'applicationPassword'
      : undefined;
  const message =
    set === 'username'
      ? 'a username is set but no application password (and no REST token)'
      : set === 'applicationPassword'
        ? 'an application password is set but no username (and no REST token)'
        : 'no dashboard credentials configured';
  throw new SvcError('SETTINGS_INVALID', message, {
    details: { reason: 'no-credentials', ...(set ? { set } : {}) },
  });
}
