import { createDashboardClient, type DashboardClient } from '../dashboard/index.js';
import type { Settings } from '../settings/index.js';

export interface ToolServerClientOptions {
  /** The product whose variables hints name (`--namespace`). */
  product: string;
  log: (line: string) => void;
  /** Jitter source for the client's retry backoff (tests). */
  random?: () => number;
}

/**
 * The dashboard client the tool server reads and writes through. It masks the server's own
 * secrets in every answer too, besides the credentials it sends, so answers pass on unscanned.
 * (The tool-server benchmark builds its library side with this very function.)
 */
export function toolServerClient(settings: Settings, options: ToolServerClientOptions): DashboardClient {
  return createDashboardClient(settings, {
    alsoMask: serverSecrets(settings),
    product: options.product,
    onWarning: (message) => options.log(`warning: ${message}`),
    ...(options.random ? { random: options.random } : {}),
  });
}

/** The secrets the settings hold: no answer or composed result may carry them. */
export function serverSecrets(settings: Settings): string[] {
  return [settings.applicationPassword, settings.token, settings.httpToken].filter((value): value is string =>
    Boolean(value),
  );
}
