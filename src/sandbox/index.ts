/**
 * The sandbox dashboard: a faithful local emulator of the dashboard interface (REST API v2 and
 * the abilities API) for demos, tests and benchmarks. Public surface: `startSandbox`, the fleet
 * helpers and their types. It is an independent implementation: it imports node built-ins, npm
 * packages and its own files only, never the client code in dashboard/ or plan/.
 */

import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { abilityCatalogue } from './abilities/catalogue.js';
import { isImplemented } from './abilities/endpoint.js';
import { displayToken } from './auth.js';
import { type ClockMode, SimClock } from './clock.js';
import type { SandboxContext } from './context.js';
import { FaultInjector, type FaultRule } from './faults.js';
import type { Fleet, FleetUser } from './fleet-types.js';
import { createHealthFaults } from './health-faults.js';
import { JobTable } from './jobs.js';
import { ListenerControl } from './listener.js';
import { type AuditSink, FileAuditSink, OutputAudit } from './output-audit.js';
import { readSnapshot, StateLock, type StateSnapshot, StateWriter } from './persist.js';
import { type QuirkName, resolveQuirks, type SandboxProfile } from './quirks.js';
import { createRandom } from './random.js';
import { DEFAULT_REQUEST_LIMITS, parserHeaderLimit, type RequestLimits } from './request-limits.js';
import { restRoutes } from './rest/router.js';
import { createReleaseSchedule } from './scheduled-releases.js';
import { createHandler } from './server.js';
import { defaultSiteCost, type SiteCost } from './site-cost.js';
import { SITE_PAGES_PREFIX, SitePages } from './site-pages.js';
import { SandboxStats } from './stats.js';
import { SandboxStore } from './store.js';
import { makeSelfSignedCertificate } from './tls.js';

export { IGNORED_PER_PAGE_MAX } from './abilities/read.js';
export type { ClockMode } from './clock.js';
export type { FaultKind, FaultRule } from './faults.js';
export { FAULT_KINDS } from './faults.js';
export { type GenerateFleetOptions, generateFleet } from './fleet-generate.js';
export { FleetError, loadFleet, parseFleet } from './fleet-parse.js';
export type * from './fleet-types.js';
export {
  type AuditSink,
  MemoryAuditSink,
  type OutputMismatch,
} from './output-audit.js';
export {
  isQuirkName,
  PROFILES,
  QUIRK_NAMES,
  type QuirkName,
  type Quirks,
  resolveQuirks,
  type SandboxProfile,
} from './quirks.js';
export { DEFAULT_REQUEST_LIMITS, type RequestLimits } from './request-limits.js';
export { DEFAULT_MS_PER_SITE, defaultSiteCost, type SiteCost } from './site-cost.js';

export interface SandboxOptions {
  fleet: Fleet;
  /** Default `compat-6.1`. */
  profile?: SandboxProfile;
  quirks?: Partial<Record<QuirkName, boolean>>;
  host?: string;
  port?: number;
  /** HTTPS with a self-signed certificate made at start (needs `openssl`). */
  tls?: boolean;
  /** Replaces `svc` in REST paths, ability names and error codes. */
  namespace?: string;
  /** Persist state as JSON after every change; loaded at start when present (it wins over `fleet`). */
  statePath?: string;
  faults?: FaultRule[];
  seed?: number;
  /** Global /batch item limit, default 100. */
  batchLimit?: number;
  /** Run calls over this many sites are queued, default 200. */
  queueThreshold?: number;
  credentials?: Partial<SandboxCredentials>;
  /** Emulate a dashboard without the abilities API (WordPress < 6.9) or with REST v2 switched off. */
  surfaces?: { rest?: boolean; abilities?: boolean };
  /** See SandboxContext.abilitiesBlocked (the routes 404, the REST ignored listings 500). */
  abilitiesBlocked?: boolean;
  /** Request line and header buffer limits in bytes, counted as nginx (default 8192 each; 0 = off). */
  requestLimits?: Partial<RequestLimits>;
  /** `fast` (default): each job poll advances simulated time by one chunk; `realistic`: wall time. */
  clock?: ClockMode;
  /**
   * Time a listing costs per site it processes (site-cost.ts). Default: 0.05 ms in compat-6.1
   * and next, 0 in spec; `SVC_SANDBOX_SITE_COST_MS` overrides the default.
   */
  siteCost?: SiteCost;
  /**
   * Checks every ability answer against the profile's published output schema and reports to
   * this sink. Default: the files under `SVC_SANDBOX_OUTPUT_AUDIT` when that is set (the test
   * suite sets it), otherwise off.
   */
  outputAudit?: AuditSink;
  /**
   * Serve child sites' pages (site-pages.ts) and give every site the URL
   * `<sandbox>/__sites/<id>/` once listening, so page health checks reach them over loopback.
   */
  sitePages?: boolean;
}

export interface SandboxCredentials {
  username: string;
  applicationPassword: string;
  token: string;
}

export interface RunningSandbox {
  url: string;
  credentials: SandboxCredentials;
  env(): Record<string, string>;
  close(): Promise<void>;
  /** With `tls`: the self-signed certificate (PEM), for clients that want to trust it. */
  certificatePem?: string;
  /** The state file the sandbox was restored from (it won over `fleet`), if any. */
  restoredFrom?: string;
  /** How many sites the sandbox serves now. */
  siteCount(): number;
}

/** Fixed, documented demo credentials so the demo is reproducible. Never valid anywhere else. */
export const DEFAULT_CREDENTIALS: SandboxCredentials = {
  username: 'admin',
  applicationPassword: 'sand BOX1 demo PASS word 2026',
  token: 'cs_5a4db0c5e0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5==ck_0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6',
};

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const ns = options.namespace ?? 'svc';
  if (!/^[a-z][a-z0-9_-]{0,39}$/.test(ns))
    throw new Error(`invalid namespace "${ns}": use lower-case letters, digits, - and _`);
  // One sandbox per state file: a second one would overwrite the first one's changes.
  const lock = options.statePath ? StateLock.acquire(options.statePath) : undefined;
  try {
    return await serve(options, ns, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function serve(
  options: SandboxOptions,
  ns: string,
  lock: StateLock | undefined,
): Promise<RunningSandbox> {
  const credentials: SandboxCredentials = { ...DEFAULT_CREDENTIALS, ...options.credentials };
  const seed = options.seed ?? 1;
  const snapshot = options.statePath ? readSnapshot(options.statePath) : undefined;
  const fleet: Fleet = structuredClone(snapshot?.fleet ?? options.fleet);
  const clock = new SimClock(options.clock ?? 'fast');
  if (snapshot) clock.restore(snapshot.clock);
  let writer: StateWriter | undefined;
  const markDirty = (): void => writer?.markDirty();
  const store = new SandboxStore(fleet, markDirty);
  const jobs = new JobTable(clock, markDirty);
  for (const job of snapshot?.jobs ?? []) jobs.jobs.set(job.job_id, job);
  const ids = createRandom(seed ^ 0x5eed);
  const admin: FleetUser = {
    username: credentials.username,
    applicationPassword: credentials.applicationPassword,
    role: 'administrator',
  };
  const profile = options.profile ?? 'compat-6.1';
  const auditDir = process.env.SVC_SANDBOX_OUTPUT_AUDIT;
  const sink = options.outputAudit ?? (auditDir ? new FileAuditSink(auditDir) : undefined);
  const ctx: SandboxContext = {
    store,
    quirks: resolveQuirks(profile, options.quirks),
    release: profile === 'next' ? 'next' : '6.1',
    previews: new Map(),
    audit: sink ? new OutputAudit(profile, sink) : undefined,
    ns,
    batchLimit: options.batchLimit ?? 100,
    queueThreshold: options.queueThreshold ?? 200,
    clock,
    siteCost: options.siteCost ?? defaultSiteCost(profile),
    stats: new SandboxStats(),
    jobs,
    faults: new FaultInjector(options.faults ?? [], seed),
    healthFaults: createHealthFaults(),
    sitePages: new SitePages(),
    releases: createReleaseSchedule(),
    surfaces: {
      rest: options.surfaces?.rest ?? true,
      abilities: !options.abilitiesBlocked && (options.surfaces?.abilities ?? true),
    },
    abilitiesBlocked: options.abilitiesBlocked ?? false,
    baseUrl: '',
    users: [admin, ...fleet.users.filter((u) => u.username !== admin.username)],
    apiKeys: [{ token: credentials.token, permission: 'read_write' }, ...fleet.apiKeys],
    newJobId: (family = 'update') => {
      // Seeded ids repeat after a restart with the same seed: skip ids a restored job holds.
      let id = `${family}_${uuidFrom(() => ids.int(0, 15))}`;
      while (jobs.jobs.has(id)) id = `${family}_${uuidFrom(() => ids.int(0, 15))}`;
      return id;
    },
  };
  writer = new StateWriter(
    options.statePath,
    (): StateSnapshot => ({
      format: 'svc-sandbox-state',
      version: 1,
      clock: clock.now(),
      fleet: store.fleet,
      jobs: [...jobs.jobs.values()],
    }),
  );
  writer.markDirty();
  writer.flush();
  let listener: ListenerControl | undefined;
  const limits: RequestLimits = { ...DEFAULT_REQUEST_LIMITS, ...options.requestLimits };
  const handler = createHandler({
    ctx,
    limits,
    catalogue: abilityCatalogue(ctx).filter(
      (ability) => ability.definitionOnly || isImplemented(ability.name),
    ),
    restTable: restRoutes(ctx),
    writer,
    refuseFor: (ms) => listener?.refuseFor(ms),
  });
  const host = options.host ?? '127.0.0.1';
  const certificate = options.tls ? makeSelfSignedCertificate(host) : undefined;
  const serverOptions = { maxHeaderSize: parserHeaderLimit(limits) };
  const server: Server = certificate
    ? createHttpsServer({ ...certificate, ...serverOptions }, handler)
    : createHttpServer(serverOptions, handler);
  listener = new ListenerControl(server);
  const port = await listener.listen(host, options.port ?? 0);
  const url = `${certificate ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  ctx.baseUrl = url;
  if (options.sitePages) store.relocate((site) => `${url}${SITE_PAGES_PREFIX}${site.id}/`);
  const running: RunningSandbox = {
    url,
    credentials,
    env: () => ({
      SVC_URL: url,
      SVC_USER: credentials.username,
      SVC_APP_PASSWORD: credentials.applicationPassword,
      // MainWP's UI shows the key as `<secret>==<key>`; the sandbox prints the same form.
      SVC_TOKEN: displayToken(credentials.token),
      ...(certificate ? { SVC_SKIP_SSL_VERIFY: 'true' } : { SVC_ALLOW_HTTP: 'true' }),
      ...(ns === 'svc' ? {} : { SVC_NAMESPACE: ns }),
    }),
    siteCount: () => store.sites().length,
    close: async () => {
      // The port closes and the state file is released even when the last save fails.
      try {
        writer.flush();
      } finally {
        await listener.shutdown();
        lock?.release();
      }
    },
  };
  if (certificate) running.certificatePem = certificate.cert;
  if (snapshot && options.statePath) running.restoredFrom = options.statePath;
  return running;
}

/** A UUID v4 shaped id from a seeded source, so job ids repeat with the seed. */
function uuidFrom(nibble: () => number): string {
  const hex = Array.from({ length: 32 }, () => nibble().toString(16));
  hex[12] = '4';
  hex[16] = ((nibble() & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
