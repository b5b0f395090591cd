import { createDashboardClient, type DashboardClient } from '../dashboard/index.js';
import { createSettingsValidator, SECRET_KEYS, type Settings } from '../settings/index.js';

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
  return createDashboardClient(transportSettings(settings), {
    alsoMask: serverSecrets(settings),
    product: options.product,
    onWarning: (message) => options.log(`warning: ${message}`),
    ...(options.random ? { random: options.random } : {}),
  });
}

/** The secrets the settings hold: no answer or composed result may carry them. */
export function serverSecrets(settings: Settings): string[] {
  return SECRET_KEYS.map((key) => settings[key]).filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
}

/**
 * rateLimit, maxSessionData and maxResponseSize are the tool server's limits (spec §8): on tool
 * calls and on what they answer, which the server enforces itself. Its own reads of the
 * dashboard (the catalogue, the pages of a plan) are not tool calls: they pace adaptively and
 * are bounded per response as the CLI's are (a larger maxResponseSize still lets a large answer
 * in, to be passed on). Counting them too would let a small limit break the connection and a
 * tool-call rate stretch one plan over minutes.
 */
function transportSettings(settings: Settings): Settings {
  const { rateLimit: _calls, maxSessionData: _budget, ...rest } = settings;
  return {
    ...rest,
    maxResponseSize: Math.max(settings.maxResponseSize, TRANSPORT_RESPONSE_LIMIT),
  };
}

/** The default of maxResponseSize: what one response of the dashboard may be, as for the CLI. */
const TRANSPORT_RESPONSE_LIMIT = createSettingsValidator().defaults().maxResponseSize as number;
