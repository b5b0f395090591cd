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
      hint: 'set SVC_URL and credentials (or dashboardUrl in settings.json); to try svc-gitops without a dashboard run `svc-gitops sandbox` and use the SVC_* lines it prints',
    });
  }
  checkCredentials(settings);
  return createDashboardClient(settings, {
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    ...(options.startSignal ? { startSignal: options.startSignal } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
}

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
