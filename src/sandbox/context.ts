import type { SimClock } from './clock.js';
import type { FaultInjector } from './faults.js';
import type { FleetApiKey, FleetSite, FleetUser } from './fleet-types.js';
import type { HealthFaults } from './health-faults.js';
import type { JobTable } from './jobs.js';
import type { OutputAudit } from './output-audit.js';
import type { Quirks } from './quirks.js';
import type { ReleaseSchedule } from './scheduled-releases.js';
import type { SiteCost } from './site-cost.js';
import type { SitePages } from './site-pages.js';
import type { SandboxStats } from './stats.js';
import type { SandboxStore } from './store.js';

/** Everything a route handler needs; one per running sandbox (no module-level state). */
export interface SandboxContext {
  store: SandboxStore;
  quirks: Quirks;
  /** `next`: the next release's catalogue and its preview/confirm flow (dashboard-facts §9). */
  release: '6.1' | 'next';
  /** Preview tokens the next release issued and not yet used, by token. */
  previews: Map<string, PreviewGrant>;
  /** Checks every ability answer against the published output schema (tests turn it on). */
  audit: OutputAudit | undefined;
  /** Product namespace: `svc` unless configured (paths, ability names, error codes). */
  ns: string;
  batchLimit: number;
  queueThreshold: number;
  clock: SimClock;
  /** Time a listing costs per site it processes (0 = answered at once; the work is counted anyway). */
  siteCost: SiteCost;
  stats: SandboxStats;
  jobs: JobTable;
  faults: FaultInjector;
  /** Sites that answer check-site badly once a given update ran (health-faults.ts). */
  healthFaults: HealthFaults;
  /** Child sites' own pages served at `/__sites/<id>/` (site-pages.ts). */
  sitePages: SitePages;
  /** Releases published once the dashboard has updated so many items (scheduled-releases.ts). */
  releases: ReleaseSchedule;
  /** Which surfaces exist: REST v2 off = filter `svc_rest_api_v2_enabled` off; abilities off = WordPress < 6.9. */
  surfaces: { rest: boolean; abilities: boolean };
  /**
   * The abilities routes blocked in front of a WordPress 6.9+ dashboard (a security plugin or a
   * proxy) while its abilities stay registered: MainWP 6.1.2's REST ignored listings, which run the
   * ability internally, then answer HTTP 500 `ability_invalid_input`. Implies abilities off.
   */
  abilitiesBlocked: boolean;
  /** Base URL once listening, without trailing slash. */
  baseUrl: string;
  /** The default administrator first, then the fleet's users. */
  users: FleetUser[];
  /** The default read_write key first, then the fleet's keys. */
  apiKeys: FleetApiKey[];
  /** Generates `<family>_<uuid v4>` job ids from the seed (reproducible), never one already in use. */
  newJobId(family?: 'update' | 'sync'): string;
}

export function canManage(user: FleetUser): boolean {
  return user.role === 'administrator';
}

export function canAccess(user: FleetUser, site: FleetSite): boolean {
  return user.sites === undefined || user.sites.includes(site.id);
}

/** `site_not_found` → `svc_site_not_found` in the configured namespace. */
export function nsCode(ctx: SandboxContext, suffix: string): string {
  return `${ctx.ns}_${suffix}`;
}

/** A preview token's binding: the ability, the caller and the arguments it previewed. */
export interface PreviewGrant {
  binding: string;
  expiresAt: number;
}
