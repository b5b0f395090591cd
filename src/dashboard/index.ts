import { SvcError } from '../errors.js';
import type { Settings } from '../settings/types.js';
import { settingVariable } from '../settings/types.js';
import { type DashboardCapabilities, FLAG_SLUG, type LiveState } from '../types.js';
import { type AbilityCaller, createAbilityCaller } from './abilities/call.js';
import { readCatalogue } from './abilities/catalogue.js';
import { checkSites } from './abilities/check-sites.js';
import { setIgnored } from './abilities/ignore.js';
import { readRollbacks } from './abilities/rollbacks.js';
import { runUpdates } from './abilities/run-updates.js';
import { syncSitesViaAbility } from './abilities/sync.js';
import type { DashboardClient, ReadLiveOptions } from './client.js';
import { type Connection, openConnection } from './connection.js';
import { readLiveViaAbilities } from './live/abilities-live.js';
import { readInstalled, searchInstalled } from './live/installed.js';
import { readLiveViaRest } from './live/rest-live.js';
import { readRestSiteListing } from './live/rest-site-listing.js';
import { withSiteFlags } from './live/site-flags.js';
import { countingRead } from './live/stopped-read.js';
import { discoverFromRestIndex } from './namespace.js';
import { runUpdatesViaRest } from './rest/run-updates.js';
import { setSiteFlag } from './rest/site-flag.js';
import { syncSites } from './rest/sync.js';
import type { PacingTimers } from './transport/limits.js';
import { noApiAtUrl } from './transport/status.js';

export type * from './client.js';
export { isRequestLineTooLong, MAX_REQUEST_LINE_BYTES } from './transport/request-line.js';

export interface DashboardClientOptions {
  onWarning?: (message: string) => void;
  onRequest?: (event: { method: string; path: string; status?: number; ms: number }) => void;
  /** Jitter source for retry backoff (tests). */
  random?: () => number;
  /**
   * Once aborted (Ctrl-C), no request leaves that has not left yet, whatever call it belongs to;
   * requests already sent are answered. Their callers get INTERRUPTED with `details.sent` false.
   */
  startSignal?: AbortSignal;
  /** Values no answer may carry besides the configured credentials (a front end's own secrets). */
  alsoMask?: ReadonlyArray<string | undefined>;
  /** The product whose variables hints name (`svc`: SVC_URL; the tool server's --namespace). */
  product?: string;
  /** The clock and waits the client paces by (tests: virtual time); real timers by default. */
  timers?: PacingTimers;
}

/** Sites per run-updates call above which the dashboard queues the work (§4 of the facts). */
const QUEUE_THRESHOLD = 200;

type Surface =
  | { kind: 'abilities'; caller: AbilityCaller; capabilities: DashboardCapabilities }
  | { kind: 'rest'; capabilities: DashboardCapabilities };

/**
 * The dashboard client. The abilities catalogue is read once, on first use; when the abilities
 * route is missing (404) and a REST key is configured, reads go through REST v2 instead and the
 * capabilities say what that surface cannot do.
 */
export function createDashboardClient(
  settings: Settings,
  options: DashboardClientOptions = {},
): DashboardClient {
  const conn = openConnection(settings, {
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.startSignal ? { startSignal: options.startSignal } : {}),
    ...(options.alsoMask ? { alsoMask: options.alsoMask } : {}),
    ...(options.product ? { product: options.product } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  if (settings.skipSslVerify) {
    options.onWarning?.(
      'certificate verification is OFF for dashboard requests (skipSslVerify); use only for local self-signed certificates',
    );
  }
  let surface: Promise<Surface> | undefined;
  const resolveSurface = (signal?: AbortSignal): Promise<Surface> => {
    surface ??= detectSurface(conn, options, signal).catch((error: unknown) => {
      surface = undefined; // a failed detection (network, auth) is tried again on the next call
      throw error;
    });
    return surface;
  };
  const abilities = async (what: string, signal?: AbortSignal): Promise<AbilityCaller> => {
    const s = await resolveSurface(signal);
    if (s.kind === 'abilities') return s.caller;
    throw new SvcError(
      'UNSUPPORTED',
      `${what} needs the abilities API, which this dashboard does not offer`,
      {
        hint: 'The REST API has no reliable per-item ignore and no unignore; update the dashboard to 6.0+ on WordPress 6.9+.',
      },
    );
  };
  const readLive = async (readOptions: ReadLiveOptions): Promise<LiveState> => {
    const s = await resolveSurface(readOptions.signal);
    const { signal } = readOptions;
    const workers = settings.concurrency;
    // With a REST key the site listing is REST GET /sites, one request for the whole fleet that
    // also carries the site-wide flags (rest-site-listing.ts); without one, list-sites-v1.
    const listing = conn.restAuth.kind === 'none' ? undefined : readRestSiteListing(conn, signal, workers);
    // Awaited by the read; a listing that fails first leaves it unawaited, not unhandled.
    listing?.catch(() => undefined);
    const flags = Promise.resolve(listing?.then((l) => l.flags));
    flags.catch(() => undefined);
    if (s.kind === 'abilities') {
      const live = await readLiveViaAbilities(
        s.caller,
        conn.url,
        s.capabilities,
        { workers, timeoutMs: settings.requestTimeout },
        readOptions,
        listing,
      );
      return withSiteFlags(s.caller, live, { signal, workers, flags });
    }
    const { groups } = readOptions;
    if (groups?.tags === true || groups?.clients)
      throw new SvcError(
        'UNSUPPORTED',
        'the desired state selects sites by tag or client, which only the abilities API reads',
        {
          hint: 'set SVC_USER and SVC_APP_PASSWORD for the abilities API, or select these sites by ID, domain or glob',
        },
      );
    const live = await readLiveViaRest(
      conn,
      s.capabilities,
      listing ?? readRestSiteListing(conn, signal, workers),
      readOptions,
    );
    return withSiteFlags(undefined, live, { signal, workers, flags });
  };

  return {
    url: conn.url,
    capabilities: async () => (await resolveSurface()).capabilities,
    readLive: (options = {}) => countingRead(options, readLive),
    async searchInstalled(search, callOptions = {}) {
      const s = await resolveSurface(callOptions.signal);
      return s.kind === 'abilities' ? searchInstalled(s.caller, search, callOptions.signal) : undefined;
    },
    async readInstalled(siteIds, callOptions = {}) {
      const s = await resolveSurface(callOptions.signal);
      return s.kind === 'abilities' ? readInstalled(s.caller, siteIds, callOptions.signal) : undefined;
    },
    async syncSites(siteIds, callOptions = {}) {
      const s = await resolveSurface(callOptions.signal);
      if (s.kind === 'abilities' && s.caller.info('sync-sites-v1')) {
        const polling = { interval: conn.jobPollInterval, timeout: conn.jobTimeout };
        return syncSitesViaAbility(s.caller, siteIds, QUEUE_THRESHOLD, polling, callOptions.signal);
      }
      return syncSites(conn, siteIds, callOptions.signal);
    },
    async setIgnored(request, callOptions = {}) {
      // Slug `*` is the site-wide flag of the kind: only the REST site edit route changes it.
      if (request.slugs.includes(FLAG_SLUG))
        await setSiteFlag(
          conn,
          request.siteId,
          request.kind,
          request.direction === 'ignore',
          callOptions.signal,
        );
      const rest = request.slugs.filter((slug) => slug !== FLAG_SLUG);
      if (rest.length === 0 && (request.kind !== 'core' || request.slugs.length > 0)) return;
      await setIgnored(
        await abilities('ignoring updates', callOptions.signal),
        { ...request, slugs: rest },
        callOptions.signal,
      );
    },
    async runUpdates(request, callOptions = {}) {
      const s = await resolveSurface(callOptions.signal);
      if (s.kind === 'rest') return runUpdatesViaRest(conn, request, callOptions.signal);
      return runUpdates(
        s.caller,
        request,
        { interval: conn.jobPollInterval, timeout: conn.jobTimeout },
        callOptions.signal,
      );
    },
    async abilities(callOptions = {}) {
      const caller = await abilities('the abilities catalogue', callOptions.signal);
      return caller.all().map((info) => ({
        name: info.name,
        shortName: info.name.slice(conn.namespace.length + 1),
        label: info.label,
        description: info.description,
        method: info.method,
        annotations: { ...info.annotations },
        inputSchema: info.inputSchema,
      }));
    },
    async runAbility(shortName, input, callOptions = {}) {
      const caller = await abilities(`the ability ${shortName}`, callOptions.signal);
      return caller.call(shortName, input, callOptions.signal);
    },
    async checkSites(siteIds, callOptions = {}) {
      const caller = await abilities('checking site health', callOptions.signal);
      return checkSites(caller, siteIds, settings.concurrency, callOptions);
    },
    async readRollbacks(siteIds, callOptions = {}) {
      const s = await resolveSurface(callOptions.signal);
      if (s.kind !== 'abilities') return undefined;
      return readRollbacks(s.caller, siteIds, settings.concurrency, callOptions);
    },
    async runAbilityJson(shortName, input, callOptions = {}) {
      const caller = await abilities(`the ability ${shortName}`, callOptions.signal);
      const { body, text } = await caller.callWithText(shortName, input, callOptions.signal);
      return { answer: body, json: text ?? JSON.stringify(body ?? null) };
    },
    stats: () => conn.transport.stats(),
    close: () => conn.transport.close(),
  };
}

async function detectSurface(
  conn: Connection,
  options: DashboardClientOptions,
  signal?: AbortSignal,
): Promise<Surface> {
  const catalogue = await readCatalogue(conn, signal);
  if (catalogue) {
    const caller = createAbilityCaller(conn, catalogue);
    const has = (name: string) => caller.info(name) !== undefined;
    const perItem = has('set-ignored-updates-v1');
    const perKind = has('ignore-site-plugins-v1') && has('ignore-site-themes-v1');
    return {
      kind: 'abilities',
      caller,
      capabilities: {
        surface: 'abilities',
        canUnignore: perItem || perKind,
        canIgnore: perItem || perKind,
        canIgnoreCore: perItem || has('ignore-site-core-v1'),
        queueThreshold: QUEUE_THRESHOLD,
      },
    };
  }
  await discoverFromRestIndex(conn, signal);
  // The abilities catalogue answered 404. A dashboard without it still has REST v2; when that is
  // missing too, the URL does not reach the dashboard's API at all (a path such as /wp-admin, or
  // another web server). The probe sends no credentials: any answer but 404 (401 included) will do.
  const probePath = `${conn.restBase}/sites`;
  const probe = await conn.transport.send({ method: 'GET', path: probePath, retry: true, signal });
  if (probe.status === 404) {
    throw noApiAtUrl(conn.url, [`${conn.abilitiesBase}/abilities`, probePath], probe, conn.product);
  }
  if (conn.restAuth.kind === 'none') {
    throw new SvcError('NOT_FOUND', `Abilities API endpoint not found at ${conn.url}${conn.abilitiesBase}`, {
      hint: `The dashboard needs version 6.0+ on WordPress 6.9+ for the abilities API; to read through the REST API v2 instead, set ${settingVariable('token', conn.product)}.`,
    });
  }
  options.onWarning?.(
    'the abilities API is missing (404): reading through the REST API v2, which cannot unignore items',
  );
  return {
    kind: 'rest',
    capabilities: {
      surface: 'rest',
      canUnignore: false,
      canIgnore: false,
      canIgnoreCore: false,
      queueThreshold: QUEUE_THRESHOLD,
    },
  };
}
