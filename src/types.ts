import type { ErrorCode } from './errors.js';

/**
 * The shared vocabulary of svc-gitops. Domain types only: no wire shapes (those stay inside
 * dashboard/), no behaviour. Every module may import this file; it imports nothing.
 *
 * Invariants that hold wherever these types travel:
 * - slugs are normalised once at the boundary (URL-decoded; plugin slugs `<folder>/<file>.php`,
 *   theme slugs a folder name, core's slug `wordpress`, translation slugs a folder or `default`);
 * - site URLs are absolute with a trailing slash, as the dashboard stores them;
 * - no value of these types ever holds a credential.
 */

export type ItemKind = 'core' | 'plugin' | 'theme' | 'translation';
/** Kinds that can be ignored (translations cannot). */
export type IgnorableKind = 'core' | 'plugin' | 'theme';
export const CORE_SLUG = 'wordpress';
/** The slug of a site-wide flag ignore: it stands for every update of its kind on the site. */
export const FLAG_SLUG = '*';

/** The skip code of the actions apply did not start because the dashboard could not be reached. */
export const DASHBOARD_UNREACHABLE = 'DASHBOARD_UNREACHABLE' as const;

export interface ItemRef {
  kind: ItemKind;
  slug: string;
}

// ---------------------------------------------------------------------------------------------
// Live state: what the dashboard says, read completely or not at all.

export type SiteStatus = 'connected' | 'disconnected' | 'suspended';

export interface Site {
  id: number;
  url: string;
  name: string;
  status: SiteStatus;
  /** The names of the site's dashboard tags; read only when the desired state selects by tag. */
  tags?: string[];
  /** The name of the site's client; read only when the desired state selects by client. */
  client?: string;
}

/**
 * The tag and client names the dashboard has (those without sites included), each kind present
 * only when it was read: when the desired state selects by it (or `import` asks for tags).
 */
export interface LiveGroupNames {
  tags?: string[];
  clients?: string[];
}

export interface PendingUpdate {
  siteId: number;
  kind: ItemKind;
  slug: string;
  name: string;
  from: string;
  /** May be '' for translations (the dashboard does not report their new version). */
  to: string;
}

/**
 * Where a live ignore is stored. Only `site` ignores can be changed through the interface;
 * `global` ignores (set in the dashboard UI, merged into every site) and `site-flag` ignores
 * (a whole kind ignored on a site) are reported, never unignored by svc-gitops.
 */
export type IgnoreOrigin = 'site' | 'global' | 'site-flag';

export interface LiveIgnore {
  siteId: number;
  kind: IgnorableKind;
  /** For `site-flag` ignores the slug is `*` (the whole kind). */
  slug: string;
  /** `all` or the specific versions that are ignored. */
  versions: 'all' | string[];
  origin: IgnoreOrigin;
}

/** A site the dashboard could not report on (offline, access denied, …). It gets no actions. */
export interface UnreadableSite {
  siteId: number;
  url: string;
  code: string;
  message: string;
}

/**
 * An entry of a site's ignored listing the dashboard cannot serve (MainWP 6.1.2 stores a REST
 * per-slug ignore under slug `0`). The site's other facts stand; what the entry may ignore does
 * not: no ignore, unignore or update of those items is planned or applied on the site.
 */
export interface BrokenIgnore {
  siteId: number;
  kind: 'core' | 'plugin' | 'theme';
  /** The items it may concern; absent: every item of `kind` (the listing of that kind is unreadable). */
  slugs?: string[];
  code: string;
  /** Names the entry (kind, position, stored slug where known) and what to do about it. */
  message: string;
}

/** What the connected surface can do; plan notes what it cannot instead of pretending. */
export interface DashboardCapabilities {
  surface: 'abilities' | 'rest';
  canUnignore: boolean;
  /** Per-item plugin and theme ignores (the REST API's per-slug ignore is broken: never used). */
  canIgnore: boolean;
  canIgnoreCore: boolean;
  /** Sites per run-updates call above which the dashboard queues the work. */
  queueThreshold: number;
  /**
   * Site-wide ignore flags: `read-write` when site records show them and the site edit route can
   * change them (a REST API key), `unseen` when neither is possible. Absent: not known.
   */
  siteFlags?: 'read-write' | 'unseen';
}

export interface LiveState {
  dashboardUrl: string;
  sites: Site[];
  pending: PendingUpdate[];
  ignores: LiveIgnore[];
  unreadable: UnreadableSite[];
  /** Broken entries of readable sites' ignored listings (absent: none). */
  broken?: BrokenIgnore[];
  capabilities: DashboardCapabilities;
  /** Pending plugin and theme updates a site-wide flag hides from the listings, where readable. */
  hidden?: PendingUpdate[];
  /**
   * The plugins and themes installed on the sites read site by site (`security.installed`);
   * absent when not read.
   */
  installed?: InstalledItem[];
  /** Tag and client names, when read; membership is on each site (`Site.tags`, `Site.client`). */
  groups?: LiveGroupNames;
}

/** A plugin or theme installed on a site, at its installed version. */
export interface InstalledItem {
  siteId: number;
  kind: 'plugin' | 'theme';
  slug: string;
  name: string;
  version: string;
}

// ---------------------------------------------------------------------------------------------
// Desired state: what the YAML says, validated and normalised (groups expanded).

export type SiteMatcher =
  | { type: 'all' }
  | { type: 'id'; id: number }
  | { type: 'domain'; domain: string }
  | { type: 'glob'; pattern: string }
  /** `tag:<name>` / `client:<name>`: the dashboard's grouping, by exact name; `source`: where written. */
  | { type: 'tag'; name: string; source?: SourceRef }
  | { type: 'client'; name: string; source?: SourceRef };

/** A site is selected when it matches any `include` matcher and no `exclude` matcher. */
export interface SiteSelection {
  include: SiteMatcher[];
  exclude: SiteMatcher[];
}

/** Where in which file a desired-state element was written (for diagnostics and reasons). */
export interface SourceRef {
  file: string;
  line: number;
  col: number;
  path: string;
}

export interface IgnoreRule {
  selection: SiteSelection;
  core: boolean;
  plugins: string[];
  themes: string[];
  /**
   * Site-wide "ignore every update of this kind" flags the rule sets (true) or clears (false);
   * kinds not named are left as they are. Later rules win.
   */
  siteFlags?: Partial<Record<IgnorableKind, boolean>>;
  source: SourceRef;
}

/** How far a version may move: `6.4.1 → 6.4.2` patch, `→ 6.5` minor, `→ 7.0` major. */
export type VersionLevel = 'none' | 'patch' | 'minor' | 'major';

export interface UpdatePolicy {
  name: string;
  selection: SiteSelection;
  kinds: ItemKind[];
  /** Slug globs; empty means every slug of the kinds. */
  include: string[];
  exclude: string[];
  maxLevel: VersionLevel;
  source: SourceRef;
  /** Updates run only while this window is open (planned as waiting otherwise). */
  window?: UpdateWindow;
  /** A target version is updated to only once it has been seen pending this long. */
  minReleaseAge?: Duration;
}

/** A maintenance window: open while any cron expression matches the time in `timezone` (IANA). */
export interface UpdateWindow {
  schedule: string[];
  timezone: string;
}

/** A duration as written (`3d`) and in milliseconds. */
export interface Duration {
  text: string;
  ms: number;
}

/**
 * Holds stop updates of matching items. A pin is a version prefix: `maxVersion: '9.4'` allows
 * 9.4 and 9.4.x, never 9.5.
 */
export interface Hold {
  selection: SiteSelection;
  kind: ItemKind;
  /** Slug glob. */
  slug: string;
  maxVersion?: string;
  /**
   * Only these target versions are held (a quarantine: versions known to break sites); a newer
   * release is judged as usual. Absent: every version (or those beyond `maxVersion`).
   */
  versions?: string[];
  reason?: string;
  source: SourceRef;
}

/**
 * What happens to live per-site ignores that the desired state does not mention:
 * `remove` unignores them, `keep` leaves them alone silently, `report` leaves them and lists them
 * in the plan (the safe default).
 */
export type IgnoreScope = 'remove' | 'keep' | 'report';

export interface Wave {
  name: string;
  selection: SiteSelection;
  /** Stop the rollout when more than this many update actions of the wave fail. */
  maxFailures: number;
  /** The wave's updates run only while this window is open. */
  window?: UpdateWindow;
  /** The wave starts only after `wave` finished and stayed healthy for `healthyFor`. */
  after?: { wave: string; healthyFor: Duration };
  /** Unhealthy sites after this wave's updates that stop the rollout (default: health's). */
  maxUnhealthy?: number;
  /** The pages checked after this wave's updates, in place of `HealthRules.paths`. */
  paths?: HealthPath[];
}

/** What counts as a healthy site after a wave's updates (check-site-v1). */
export interface HealthRules {
  /** HTTP status classes or codes that count as healthy: `2xx`, `301`. */
  status: string[];
  /** Unhealthy when the response time exceeds this multiple of the time before the wave. */
  responseTimeFactor?: number;
  /** Unhealthy sites a wave may leave before the rollout stops. */
  maxUnhealthy: number;
  /** The site's own pages fetched after check-site passes (at most five). */
  paths?: HealthPath[];
  /** Milliseconds one page fetch may take (default 10 s). */
  pathTimeoutMs?: number;
  /** Milliseconds all page fetches after one wave may take together (default 120 s). */
  pathBudgetMs?: number;
}

/** One page of every updated site that a health check fetches. */
export interface HealthPath {
  /** Below the site's URL, starting with `/`. */
  path: string;
  /** Accepted statuses: `200`, `2xx`, `200-399`. */
  status: string[];
  contains?: string;
  notContains?: string;
  /** Adds `svc_gitops_check=<unique value>` to the query. */
  cacheBust: boolean;
}

export interface ApprovalRules {
  /** Plans that update more than this many sites need explicit approval (not --auto-approve). */
  maxSitesWithoutApproval?: number;
  coreNeedsApproval: boolean;
  majorNeedsApproval: boolean;
}

/**
 * A vulnerability feed's record about one item, as the planner needs it (the feed module reads
 * Wordfence Intelligence v3 or svc-gitops' own format into these). Versions compare like the
 * platform's; an open range end is `*`.
 */
export interface VersionRange {
  from: string;
  fromInclusive: boolean;
  to: string;
  toInclusive: boolean;
}

export interface Advisory {
  /** The feed's record id. */
  id: string;
  kind: 'core' | 'plugin' | 'theme';
  /** The feed's slug: a plugin's folder (`akismet`), a theme's folder, `wordpress` for core. */
  slug: string;
  title: string;
  cve?: string;
  /** CVSS base score, 0-10. */
  cvss?: number;
  /** Where a person reads about it (https only). */
  link: string;
  affected: VersionRange[];
  /** Versions that fix it; empty: no fix yet. */
  patched: string[];
}

/** What gates security updates skip, and who must approve them. */
export interface SecurityRules {
  bypass: { soak: boolean; window: boolean };
  approval: ApprovalRules;
}

/** Where the vulnerability feed comes from. */
export type FeedSource =
  | { type: 'wordfence'; feed: 'production' | 'scanner'; url: string }
  | { type: 'file'; path: string; format: 'wordfence' | 'svc' };

export interface SecurityConfig extends SecurityRules {
  source: FeedSource;
  /** A cached feed younger than this is used without downloading again. */
  refreshAfter: Duration;
  /** A feed older than this gives a warning. */
  maxAge: Duration;
  /** Also judge installed plugins and themes without a pending update (read site by site). */
  installed?: boolean;
  sourceRef: SourceRef;
}

export interface DesiredFile {
  path: string;
  sha256: string;
}

export interface DesiredState {
  version: 1;
  /** Sites svc-gitops manages at all; unselected sites get no actions. */
  sites: SiteSelection;
  /** Where the top-level `sites` was written; absent when it was not (all sites). */
  sitesSource?: SourceRef;
  ignoreScope: IgnoreScope;
  ignores: IgnoreRule[];
  policies: UpdatePolicy[];
  holds: Hold[];
  waves: Wave[];
  /** Health checks after each wave's updates; absent: no checks. */
  health?: HealthRules;
  approval: ApprovalRules;
  /** The vulnerability feed and how security updates are treated; absent: no feed. */
  security?: SecurityConfig;
  files: DesiredFile[];
  /** sha256 over the sorted (path, sha256) pairs of `files`. */
  digest: string;
}

// ---------------------------------------------------------------------------------------------
// Rollout state: what earlier runs saw and did, kept in Git beside the desired state (no state
// outside Git and the dashboard). Field names are the file format.

/** A site a health check found unhealthy, with the update that preceded it when known. */
export interface UnhealthySite {
  site_id: number;
  site_url: string;
  /** What was wrong: `offline`, `HTTP 500`, `response time 4.1 s (0.3 s before)`, an error. */
  problem: string;
  /** The updates applied to the site just before (`plugin akismet/akismet.php 5.3.6 → 5.3.7`). */
  after?: string[];
}

export interface WaveRecord {
  /** When an apply last ran updates of this wave. */
  updated_at?: string;
  /**
   * When svc-gitops first saw the wave with nothing left to run and no record of its apply (a
   * lost or older state file): an unknown time counts as that sighting, never as long ago.
   */
  done_seen_at?: string;
  /** The last time a health check (after an apply, or at plan time) found unhealthy sites. */
  unhealthy_at?: string;
  /** The first check of the current unhealthy spell (cleared once a check finds it healthy). */
  unhealthy_since?: string;
  /** What the last health check found (empty: healthy, or no checks configured). */
  unhealthy: UnhealthySite[];
}

/**
 * A target version found to break sites: a wave's health check halted the rollout after it.
 * Until the desired state holds the version itself (`adopted_at`), the record holds it on every
 * site; from then on the desired state's hold decides, and removing that hold releases it.
 */
export interface QuarantineRecord {
  /** When it was first recorded. */
  at: string;
  /** The wave whose health check halted the rollout after the update. */
  wave?: string;
  /** The sites left unhealthy after the update (to repair by hand), with the check that failed. */
  sites: UnhealthySite[];
  /** When a plan first saw the desired state hold this version (a reviewed hold took over). */
  adopted_at?: string;
}

export interface RolloutState {
  /** `kind slug version` → when svc-gitops first saw that target version pending (ISO time). */
  first_seen: Record<string, string>;
  waves: Record<string, WaveRecord>;
  /** `kind slug version` → the quarantine of that target version. Absent: none. */
  quarantines?: Record<string, QuarantineRecord>;
  /**
   * `kind slug version advisory` → the sites a delivered notification named as vulnerable with
   * no fix (rollout-notified.ts). Absent: none remembered, so every such site is new.
   */
  notified?: Record<string, NotifiedRecord>;
}

/** Sites already notified as vulnerable with no fix for one item version and advisory. */
export interface NotifiedRecord {
  /** When the first of them was notified. */
  at: string;
  /** Ascending site ids. */
  sites: number[];
}

/**
 * A rollout held because a wave has unhealthy sites: the earliest such wave (in rollout order),
 * since when, and the sites a plan-time re-check still finds unhealthy (or, without one, the
 * record's). Every front end shows it first and exits non-zero while it lasts.
 */
export interface RolloutHalt {
  wave: string;
  since: string;
  unhealthy: UnhealthySite[];
}

/** The rollout inputs of a plan: the recorded state and health checks made just before planning. */
export interface PlanRollout {
  state: RolloutState;
  /** Wave → the unhealthy sites a plan-time check found (empty: all checked sites healthy). */
  health: Record<string, UnhealthySite[]>;
  /** Ignore failed or missing health checks (`apply --override-health`); time gates still hold. */
  overrideHealth?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Plan: plain JSON data, the only thing apply may execute. Field names are the file format.

export type ActionOp = 'ignore' | 'unignore' | 'update';
/** low: ignore/unignore; medium: plugin/theme/translation update within policy; high: core or major. */
export type Risk = 'low' | 'medium' | 'high';

export interface Action {
  op: ActionOp;
  site_id: number;
  site_url: string;
  kind: ItemKind;
  slug: string;
  name: string;
  /** Updates only: the pending version move. */
  from?: string;
  to?: string;
  risk: Risk;
  /** For people; never drives apply. */
  reason: string;
  /** Rollout wave of an update action, when waves are configured. */
  wave?: string;
}

export type PlanNoteKind =
  | 'unreadable-site'
  | 'unmanaged-ignore'
  | 'cannot-unignore'
  | 'cannot-ignore'
  | 'held'
  | 'offline-site'
  | 'needs-approval'
  | 'unknown-site'
  | 'hidden-update'
  | 'flags-unseen'
  | 'waiting'
  | 'vulnerable';

/**
 * One fact a plan reports without acting on it. A note says the same thing of every site in
 * `site_ids` (ascending): a fleet's repeated facts are one note each, never one per site, so
 * a message holds no per-site details (a count in it is the total over its sites). Plan-wide
 * notes have no `site_ids`.
 */
export interface PlanNote {
  kind: PlanNoteKind;
  site_ids?: number[];
  /**
   * The addresses of `site_ids`, in the same order. Only on notes about sites the dashboard
   * could not report on (`unreadable-site`, `offline-site`): they have no actions, so nothing
   * else in the plan says which sites they are.
   */
  site_urls?: string[];
  item?: ItemRef;
  message: string;
}

export interface PlanSummary {
  ignore: number;
  unignore: number;
  update: number;
  sites: number;
  high_risk: number;
}

export interface Plan {
  /**
   * 3 since fingerprints list a site's facts in the index's canonical order (2: notes list their
   * sites). Plans of other versions are refused, never guessed at.
   */
  format_version: 3;
  /** sha256 of the canonical JSON of every other field. */
  id: string;
  created_at: string;
  expires_at: string;
  dashboard: { url: string };
  desired_digest: string;
  /** Actions in the stated order: ignores, unignores, then updates by wave; within each by site id, kind, slug. */
  actions: Action[];
  /** site id → fingerprint of the live facts that site's actions depend on. */
  fingerprints: Record<string, string>;
  notes: PlanNote[];
  summary: PlanSummary;
  /** True when the approval rules of the desired state require a person to approve. */
  needs_approval: boolean;
  /**
   * `max_failures` of each named wave the plan's updates are in, so a plan file alone applies
   * with the thresholds it was made with. Absent when no update is in a named wave.
   */
  wave_limits?: Record<string, number>;
  /** The rollout is held: a wave has unhealthy sites. Absent while nothing is held. */
  rollout_halt?: RolloutHalt;
  /**
   * Target versions held on every site because an update to them broke sites, by kind, slug
   * and version. Absent when none is quarantined.
   */
  quarantines?: PlanQuarantine[];
  /**
   * The gates the plan's updates passed, one entry per wave with any: apply judges them again
   * when it writes, wave by wave. Absent when no update had a gate.
   */
  gates?: PlanGate[];
  /** Present when the desired state names a vulnerability feed. */
  security?: PlanSecurity;
  /**
   * The tag and client selectors of the desired state, each with how many listed sites it
   * names (0 for a name the dashboard does not have). Absent when the desired state uses none.
   */
  selectors?: PlanSelector[];
}

export interface PlanSelector {
  /** As written: `tag:production`, `client:Acme`. */
  selector: string;
  sites: number;
}

/** An advisory as a plan shows it. */
export interface PlanAdvisory {
  title: string;
  cve?: string;
  cvss?: number;
  link: string;
}

/** Sites that move one item from one version to another, and why it matters. */
export interface SecurityMove {
  kind: ItemKind;
  slug: string;
  name: string;
  from: string;
  to: string;
  /** Advisory ids (keys of `PlanSecurity.advisories`), ascending. */
  advisories: string[];
  site_ids: number[];
}

/**
 * The security view of a plan: its security updates (each also an `update` action, and first in
 * every view), and the sites left on a vulnerable version: `no-fix` when no release fixes it,
 * `not-planned` when the fix is pending but not planned (held, ignored, waiting for a wave, or no
 * policy allows it).
 */
export interface PlanSecurity {
  feed: { source: string; fetched_at: string };
  advisories: Record<string, PlanAdvisory>;
  updates: SecurityMove[];
  vulnerable: Array<SecurityMove & { fix: 'no-fix' | 'not-planned' }>;
}

/** A quarantined version as a plan shows it (rollout-state `quarantines`, or a reviewed hold). */
export interface PlanQuarantine {
  kind: ItemKind;
  slug: string;
  version: string;
  /** When the quarantine was recorded. */
  since: string;
  wave?: string;
  /** Sites the update left unhealthy: the interface cannot roll back, so they are repaired by hand. */
  repair: UnhealthySite[];
  /** Sites of this plan on which the version is pending and held. */
  held_sites: number;
  /** True once the desired state holds the version itself (then removing that hold releases it). */
  in_desired_state: boolean;
}

export interface PlanGate {
  /** The wave whose updates these gates hold; absent in a plan without waves. */
  wave?: string;
  /** Maintenance windows that must be open (`of`: `policy "x"` or `wave "y"`). */
  windows?: Array<{ of: string; schedule: string[]; timezone: string }>;
  /** The latest end of the soak times the wave's updates passed. */
  soak_ends_at?: string;
  /**
   * The wave starts only once `wave` has been healthy for `healthy_for`: from `opens_at`.
   * `site_ids`: the connected sites of `wave` when the plan was made; apply checks their health
   * again before it writes this wave (absent when health was overridden).
   */
  after?: { wave: string; healthy_for: string; opens_at: string; site_ids?: number[] };
}

// ---------------------------------------------------------------------------------------------
// Apply results.

export type ActionStatus = 'done' | 'failed' | 'skipped' | 'blocked';

export interface ActionOutcome {
  action: Action;
  status: ActionStatus;
  /** An OutcomeCode, or for a failed call the SvcError code or the dashboard's per-site code. */
  code?: ActionOutcomeCode;
  message?: string;
  /** Reported done by the call, but the re-read that would confirm it failed or missed the site. */
  unverified?: true;
}

/** The health check after one wave's updates. */
export interface WaveHealth {
  wave: string | undefined;
  checked: number;
  unhealthy: UnhealthySite[];
  max_unhealthy: number;
  /** True when the wave left more unhealthy sites than allowed: later waves did not start. */
  stopped: boolean;
}

/** What every apply report shows of a run: its outcomes, in plan order, and its counts. */
export interface ApplyRun {
  plan_id: string;
  /** Health checks after each wave, when the desired state asks for them. */
  health?: WaveHealth[];
  started_at: string;
  finished_at: string;
  outcomes: ActionOutcome[];
  interrupted: boolean;
  calls: number;
}

/**
 * Why apply started no further call. INTERRUPTED: the caller's signal; WAVE_STOPPED: a wave
 * passed its `max_failures`; DASHBOARD_UNREACHABLE: a call found nothing answering at the
 * dashboard's address; UNHEALTHY: a wave left more unhealthy sites than it may; GATE_CLOSED: a gate the plan recorded
 * (a window) is shut before a later wave; the rest: a failure no later call gets past (a refused login, no rights,
 * a dashboard out of resources). The actions not started are skipped with this code.
 */
export const STOP_CODES = [
  'INTERRUPTED',
  'WAVE_STOPPED',
  DASHBOARD_UNREACHABLE,
  'UNHEALTHY',
  'GATE_CLOSED',
  'AUTH_FAILED',
  'FORBIDDEN',
  'RESOURCE_EXHAUSTED',
] as const;
export type StopCode = (typeof STOP_CODES)[number];

/**
 * Why an action was held back before any call: an earlier run completed it (the journal),
 * it is outside the approval (a reviewed plan, an interrupted run), or the connected surface
 * cannot do it.
 */
export const HOLD_CODES = ['ALREADY_DONE', 'UNREVIEWED', 'NOT_APPROVED', 'UNSUPPORTED'] as const;
export type HoldCode = (typeof HOLD_CODES)[number];

/**
 * The codes apply writes on outcomes itself: a hold, a stop, what the confirming re-read found
 * (NOT_PERSISTED: reported done, not there; NOT_APPLIED: still pending), NOT_REPORTED (the
 * dashboard answered for neither), SKIPPED (the dashboard listed it in `skipped[]`) and
 * NEWER_RELEASE (not sent: the item got a newer release than the plan showed, release-race.ts). A failed call's outcome carries the SvcError code of the
 * failure or the dashboard's own per-site code (`svc_update_failed`) instead.
 */
export const OUTCOME_CODES = [
  ...HOLD_CODES,
  ...STOP_CODES,
  'NOT_PERSISTED',
  'NOT_APPLIED',
  'NOT_REPORTED',
  'SKIPPED',
  'NEWER_RELEASE',
] as const;
export type OutcomeCode = (typeof OUTCOME_CODES)[number];

/**
 * A code the dashboard itself gave one site in its answer (`errors[].code`): its vocabulary is
 * open, so it is branded to keep it apart from our closed codes; it is written out as sent.
 */
export type DashboardSiteCode = string & { readonly dashboardSiteCode: true };

/** Marks a code as the dashboard's own per-site code (the text is unchanged). */
export const dashboardSiteCode = (code: string): DashboardSiteCode => code as DashboardSiteCode;

/** Every code an action outcome can carry: ours (closed), an SvcError code, or the dashboard's. */
export type ActionOutcomeCode = OutcomeCode | ErrorCode | DashboardSiteCode;

/** Whether the re-read after the calls confirmed the outcomes reported done. */
export type Verification =
  /** Every site with an outcome to check was read again and judged. */
  | { status: 'confirmed' }
  /** No outcome needed a check (nothing reported done, or nothing ran). */
  | { status: 'not-needed' }
  /** The re-read could not read some sites: the outcomes on them are `unverified`. */
  | { status: 'partial'; unreadSites: number }
  /** The re-read failed: outcomes reported done are `unverified`. */
  | { status: 'failed'; code: string; message: string }
  /** No re-read was made (interrupted, or the dashboard could not be reached). */
  | { status: 'skipped'; code: 'INTERRUPTED' | typeof DASHBOARD_UNREACHABLE; message: string };

/** The complete result of one apply: the run, whether it was confirmed, and why it stopped. */
export interface ApplyResult extends ApplyRun {
  verification: Verification;
  /** Set when calls were held back (the actions not started are skipped with this code). */
  stopped?: { code: StopCode; message: string };
}

// ---------------------------------------------------------------------------------------------
// Status: the standing overview of one dashboard (`svc-gitops status`, its GitHub issue),
// derived from a plan made now, the live read and the apply history. Field names are the
// `status --format json` document.

/** The groups of a status, in the order every view shows them. */
export type StatusState = 'pending' | 'soaking' | 'window' | 'held' | 'quarantined' | 'failed' | 'vulnerable';

/** One item in one state: what it is, why it is there, and the sites it is there on. */
export interface StatusRow {
  kind: ItemKind;
  slug: string;
  name: string;
  /** `6.8.1–6.8.2 → 6.8.3`, a quarantined version, or empty for an ignore-list change. */
  versions: string;
  /** Why the item is in this state (the rule with file:line, the gate, the failure codes). */
  detail: string;
  /** When the state ends, when known (ISO time): a soak's end, a window's opening, a wave's earliest start. */
  until?: string;
  /** `until` for people: in the zone of the window or policy that sets it, and in UTC. */
  when?: string;
  sites: number;
  /** The addresses of the first few sites, by site id. */
  first_sites: string[];
}

export interface StatusGroup {
  state: StatusState;
  /** Distinct items (kind and slug) in the group. */
  items: number;
  /** Distinct sites in the group. */
  sites: number;
  rows: StatusRow[];
}

export interface StatusReport {
  dashboard: string;
  plan_id: string;
  created_at: string;
  /** The rollout is halted: every view leads with it. */
  rollout_halt?: RolloutHalt;
  /** Every state, in order, empty groups included. */
  groups: StatusGroup[];
  /** The last apply the history file records for this dashboard; absent when none. */
  last_apply?: { time: string; plan_id: string; records: number; failed: number };
}
