import type { ErrorCode } from '../errors.js';
import type {
  DashboardCapabilities,
  DashboardSiteCode,
  IgnorableKind,
  InstalledItem,
  ItemRef,
  LiveState,
  Site,
} from '../types.js';

/**
 * What the rest of svc-gitops may ask of a dashboard. The only code that speaks HTTP to the
 * dashboard lives behind this interface (see `createDashboardClient`). Wire shapes never leave
 * dashboard/; every failure is an `SvcError` with a code from errors.ts and no credential in it.
 */
export interface DashboardClient {
  /** Base URL of the dashboard, without credentials. */
  readonly url: string;

  /** What the connected surface can do (abilities or REST fallback). Reads the catalogue once. */
  capabilities(): Promise<DashboardCapabilities>;

  /**
   * The complete live state, or an error: never a partial state. With `siteIds` only those
   * sites are read (used to re-check a saved plan's touched sites).
   */
  readLive(options?: ReadLiveOptions): Promise<LiveState>;

  /**
   * Asks the dashboard to re-sync sites: `sync-sites-v1` when the abilities API offers it, else
   * the global batch `sites.sync` (chunked, halving the chunk when the dashboard answers 413).
   */
  syncSites(siteIds: number[], options?: CallOptions): Promise<SyncResult>;

  /** Ignores or unignores items of one kind on one site in one call. Throws on failure. */
  setIgnored(request: IgnoreRequest, options?: CallOptions): Promise<void>;

  /**
   * Runs exactly the given pending items on exactly the given sites (one run-updates call, or a
   * queued job polled to completion). Per-item failures are results, not exceptions.
   */
  runUpdates(request: RunUpdatesRequest, options?: CallOptions): Promise<RunUpdatesResult>;

  /**
   * The abilities of the interface namespace as the catalogue describes them (read once, shared
   * with every other call). Throws UNSUPPORTED when the dashboard has no abilities API.
   */
  abilities(options?: CallOptions): Promise<AbilityDescription[]>;

  /**
   * Runs one ability by its name without the namespace (`list-updates-v1`), with the method and
   * input encoding its catalogue entry imposes, and returns its answer as the dashboard sent it.
   * A key the ability does not declare is refused before any request.
   */
  runAbility(shortName: string, input: Record<string, unknown>, options?: CallOptions): Promise<unknown>;

  /**
   * Checks sites through the dashboard (`check-site-v1`): whether each answers, its HTTP status
   * and response time. Needs the abilities API.
   */
  checkSites(siteIds: readonly number[], options?: CheckSitesOptions): Promise<SiteCheck[]>;

  /**
   * The plugin and theme versions WordPress rolled back on each site after a failed update
   * (`rollback_items` of `get-site-updates-v1`). Undefined when the dashboard does not offer
   * that ability (no abilities API, or an older one).
   */
  readRollbacks(siteIds: readonly number[], options?: CallOptions): Promise<SiteRollbacks[] | undefined>;

  /**
   * Looks for plugin and theme slugs among the items installed on the given sites, stopping once
   * all are found (one read per site and kind: slow on a large fleet, so only `--strict` asks).
   * Undefined when the dashboard cannot list installed items (no abilities API, or no listing).
   */
  searchInstalled(search: InstalledSearch, options?: CallOptions): Promise<InstalledSearchResult | undefined>;

  /**
   * Every plugin and theme installed on the given sites with its version (one read per site and
   * kind). Undefined when the dashboard cannot list installed items.
   */
  readInstalled(siteIds: readonly number[], options?: CallOptions): Promise<InstalledRead | undefined>;

  /**
   * runAbility, with the answer also as JSON text for a front end that passes it on: the
   * dashboard's own bytes when they spell exactly the answer (nothing masked, nothing dropped),
   * else the answer serialised. Credentials are masked in both, as in every answer.
   */
  runAbilityJson(
    shortName: string,
    input: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<{ answer: unknown; json: string }>;

  /** Requests issued and response bytes read so far (for progress, budgets and benchmarks). */
  stats(): ClientStats;

  close(): Promise<void>;
}

export interface SiteRollbacks {
  siteId: number;
  items: Array<{ kind: 'plugin' | 'theme'; slug: string; version: string }>;
  /** The dashboard's error about this site: nothing is known of its rollbacks. */
  error?: string;
  /** The error says a rollback is there without naming it (see readRollbacks). */
  unnamed?: true;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface CheckSitesOptions extends CallOptions {
  /** Called as each site's check is answered: sites checked so far of `total`. */
  onProgress?: (done: number, total: number) => void;
}

export interface ReadLiveOptions extends CallOptions {
  /** Only these sites are read and reported (a saved plan's touched sites). */
  siteIds?: number[];
  /**
   * Picks the sites whose updates and ignores are read, once the site listing is in (`--target`
   * by domain or glob). Every listed site is still reported in `sites`; pending updates and
   * ignores only for the picked ones. May throw (a target that matches no site).
   */
  selectSites?: (sites: readonly Site[]) => number[];
  onProgress?: (progress: ReadProgress) => void;
  /**
   * The dashboard groupings to read with the sites (nothing extra is read without): `tags`, and
   * `clients` with the client names whose sites are wanted. The live state then carries the
   * names (`groups`) and each site's `tags` and `client`. `tags: 'if-offered'` reads them only
   * where the abilities API offers list-tags-v1 (others refuse a dashboard without it).
   */
  groups?: { tags?: boolean | 'if-offered'; clients?: readonly string[] };
}

export interface ReadProgress {
  /** Requests of the read answered so far. */
  done: number;
  /** Requests the read needs, once every listing knows its size. */
  total: number | undefined;
  /** Sites listed so far. */
  sites: number;
}

export interface InstalledRead {
  items: InstalledItem[];
  /** Sites whose listing the dashboard answered with an error: their items are not known. */
  failed: Array<{ siteId: number; message: string }>;
}

export interface InstalledSearch {
  siteIds: number[];
  plugins: string[];
  themes: string[];
  onProgress?: (sitesRead: number, sites: number) => void;
}

export interface InstalledSearchResult {
  /** The slugs searched for that some site has installed. */
  found: { plugin: Set<string>; theme: Set<string> };
  /** Every slug seen installed on the sites read (for suggestions). */
  installed: { plugin: Set<string>; theme: Set<string> };
  sitesRead: number;
}

export interface SyncResult {
  synced: number[];
  failed: Array<{ siteId: number; code: string; message: string }>;
}

export interface IgnoreRequest {
  siteId: number;
  kind: IgnorableKind;
  direction: 'ignore' | 'unignore';
  /** Ignored for `core` (its slug is fixed). */
  slugs: string[];
}

export interface RunUpdatesRequest {
  siteIds: number[];
  /**
   * The dashboard runs, on every one of `siteIds`, each pending item whose kind and slug are
   * among these items' kinds and slugs (the product, not just the pairs listed).
   */
  items: ItemRef[];
  /**
   * The caller has checked against the live state that the product of the items' kinds and
   * slugs names nothing pending on these sites that it does not mean to run: one request. Without
   * it, kinds whose slugs could look alike (themes and translations, say) go in separate requests.
   */
  productChecked?: boolean;
  /** Called while a queued job is polled. */
  onJobProgress?: (progress: { jobId: string; processed: number; total: number }) => void;
}

export interface UpdatedItem {
  siteId: number;
  kind: ItemRef['kind'];
  slug: string;
  from?: string;
  to?: string;
}

export interface UpdateError {
  siteId: number;
  kind?: ItemRef['kind'];
  slug?: string;
  /** The dashboard's own code for the site, or ours when the call for it failed. */
  code: DashboardSiteCode | ErrorCode;
  message: string;
}

export interface RunUpdatesResult {
  updated: UpdatedItem[];
  errors: UpdateError[];
  /** Items the dashboard left out because an ignore holds them (the next release's `skipped[]`). */
  skipped?: SkippedItem[];
  /** Set when the dashboard queued the run; the result then reflects the finished job. */
  jobId?: string;
}

export interface SkippedItem {
  siteId: number;
  kind: ItemRef['kind'];
  slug: string;
  /** As the dashboard says it: `ignored_site`, `ignored_global`, `ignored_site_flag`. */
  reason: string;
}

export interface SiteCheck {
  siteId: number;
  online: boolean;
  httpCode: number;
  /** Seconds. */
  responseTime: number;
  /** Set when the dashboard answered this site's check with an error. */
  error?: string;
}

export interface ClientStats {
  requests: number;
  /** Requests whose bytes left (undici put them on a socket); none leaves once startSignal aborted. */
  sent: number;
  /** Of those, the ones not answered yet. */
  inFlight: number;
  responseBytes: number;
  retries: number;
}

/** One ability as the catalogue describes it (wire names kept: front ends show them as they are). */
export interface AbilityDescription {
  /** `<namespace>/<name>-v1` */
  name: string;
  /** Without the namespace: `list-updates-v1`. */
  shortName: string;
  label: string;
  description: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** `destructive` is undefined when the catalogue did not say. */
  annotations: { readonly: boolean; destructive: boolean | undefined; idempotent: boolean };
  inputSchema: unknown;
}
