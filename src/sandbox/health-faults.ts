import type { FleetSite } from './fleet-types.js';

/**
 * Sites that answer badly once a given update has run on them: the failure a rollout's health
 * checks exist for (the update call "succeeds" and the site goes down). Set at run time through
 * `PUT /__sandbox/health-faults`; check-site-v1 reports such a site with the rule's status.
 *
 * A rule names the site, the item (`plugin:<slug>`, `theme:<slug>`, `core`) and the version that
 * breaks it; without a version, the version pending on the site when the rule was set. It fires
 * while the site has that version installed, so undoing the update (or a newer one) heals it.
 *
 * A rule with `rollback: true` is the other failure WordPress itself handles: updating the item
 * to that version on that site fails, WordPress restores the installed version, and
 * get-site-updates-v1 lists the attempted version in `rollback_items` from then on.
 */
export interface HealthFault {
  site: number;
  item: string;
  version: string;
  /** What check-site reports while the fault fires (defaults: offline, HTTP 500). */
  online: boolean;
  httpCode: number;
  /** Response time in seconds; default: the site's usual time. */
  responseTime?: number;
  /** What the site's own pages (site-pages.ts) answer while it fires: status (default `httpCode`), body text. */
  pageStatus?: number;
  pageBody?: string;
  /** The update to `version` is rolled back by WordPress instead of breaking the site. */
  rollback?: true;
}

/**
 * One rollback as MainWP 6.1.2 saves it in the site option `rollback_updates_data`
 * (includes/rest-api/controller/version1/class-mainwp-rest-api-v1-helper.php,
 * handle_site_update_item): under the item's slug and the version rolled back from, the item's
 * name, `old_version` (the version WordPress restored), `version` (the one it rolled back from)
 * and `created` (Unix seconds).
 */
export interface RolledBackItem {
  name: string;
  old_version: string;
  version: string;
  created: number;
}

/**
 * `rollback_items` as class-mainwp-updates-helper.php (get_roll_items_updates_of_site) builds it:
 * per kind, a map from slug to the saved entry whose version is the item's pending new version
 * (a rollback of an older release is not shown), or `[]` (PHP's empty array) when there is none.
 */
export interface RollbackItems {
  plugins: Record<string, RolledBackItem> | [];
  themes: Record<string, RolledBackItem> | [];
}

export interface HealthFaults {
  rules(): HealthFault[];
  /** Replaces the rules; returns a message naming the first bad rule, or undefined. */
  replace(value: unknown, resolve: (id: number | string) => FleetSite | undefined): string | undefined;
  /** The rule that fires for this site now, if any. */
  firing(site: FleetSite): HealthFault | undefined;
  /** Whether updating `item` (`plugin:<slug>`) to `version` on the site is rolled back. */
  rollsBack(site: FleetSite, item: string, version: string): boolean;
  /** Records a rollback of `slug`, as the dashboard saves it for get-site-updates-v1. */
  recordRollback(siteId: number, kind: 'plugin' | 'theme', slug: string, entry: RolledBackItem): void;
  /** The site's `rollback_items`, from its pending updates (`pending(kind)`: slug → new version). */
  rollbacks(siteId: number, pending: (kind: 'plugin' | 'theme') => Map<string, string>): RollbackItems;
}

type Saved = Map<string, Map<string, RolledBackItem>>;

export function createHealthFaults(): HealthFaults {
  let rules: HealthFault[] = [];
  // site → kind → slug → version rolled back from → entry.
  const rolledBack = new Map<number, { plugin: Saved; theme: Saved }>();
  return {
    rules: () => rules.map((rule) => ({ ...rule })),
    replace(value, resolve) {
      if (!Array.isArray(value)) return 'health faults must be a JSON array of rules';
      const next: HealthFault[] = [];
      for (const [index, raw] of value.entries()) {
        const parsed = parseRule(raw, resolve);
        if (typeof parsed === 'string') return `rule ${index}: ${parsed}`;
        next.push(parsed);
      }
      rules = next;
      return undefined;
    },
    firing(site) {
      return rules.find(
        (rule) =>
          !rule.rollback && rule.site === site.id && installedVersion(site, rule.item) === rule.version,
      );
    },
    rollsBack(site, item, version) {
      return rules.some(
        (rule) => rule.rollback && rule.site === site.id && rule.item === item && rule.version === version,
      );
    },
    recordRollback(siteId, kind, slug, entry) {
      const saved = rolledBack.get(siteId) ?? { plugin: new Map(), theme: new Map() };
      const versions = saved[kind].get(slug) ?? new Map<string, RolledBackItem>();
      versions.set(entry.version, { ...entry });
      saved[kind].set(slug, versions);
      rolledBack.set(siteId, saved);
    },
    rollbacks(siteId, pending) {
      const saved = rolledBack.get(siteId);
      const shown = (kind: 'plugin' | 'theme'): Record<string, RolledBackItem> | [] => {
        const out: Record<string, RolledBackItem> = {};
        for (const [slug, version] of pending(kind)) {
          const entry = saved?.[kind].get(slug)?.get(version);
          if (entry) out[slug] = { ...entry };
        }
        return Object.keys(out).length === 0 ? [] : out;
      };
      return { plugins: shown('plugin'), themes: shown('theme') };
    },
  };
}

function parseRule(
  raw: unknown,
  resolve: (id: number | string) => FleetSite | undefined,
): HealthFault | string {
  if (typeof raw !== 'object' || raw === null) return 'not an object';
  const rule = raw as Record<string, unknown>;
  const site =
    typeof rule.site === 'number' || typeof rule.site === 'string' ? resolve(rule.site) : undefined;
  if (!site) return 'site must name a site of the fleet (ID or domain)';
  const item = typeof rule.item === 'string' ? rule.item : '';
  if (!/^(core|(plugin|theme):.+)$/.test(item))
    return 'item must be `core`, `plugin:<slug>` or `theme:<slug>`';
  const version = typeof rule.version === 'string' ? rule.version : pendingVersion(site, item);
  if (!version) return `no version given and no update of ${item} is pending on site ${site.id}`;
  const fault: HealthFault = {
    site: site.id,
    item,
    version,
    online: rule.online === undefined ? false : rule.online === true,
    httpCode: typeof rule.http_code === 'number' ? rule.http_code : 500,
  };
  if (rule.rollback === true) fault.rollback = true;
  if (fault.rollback && item === 'core') return 'rollback applies to plugins and themes only';
  if (typeof rule.response_time === 'number') fault.responseTime = rule.response_time;
  if (typeof rule.page_status === 'number') fault.pageStatus = rule.page_status;
  if (typeof rule.page_body === 'string') fault.pageBody = rule.page_body;
  return fault;
}

function itemOf(site: FleetSite, item: string): { version: string; update: string | null } | undefined {
  if (item === 'core') return { version: site.core.current, update: site.core.new };
  const [kind, slug] = [item.slice(0, item.indexOf(':')), item.slice(item.indexOf(':') + 1)];
  const list = kind === 'plugin' ? site.plugins : site.themes;
  return list.find((entry) => entry.slug === slug);
}

function installedVersion(site: FleetSite, item: string): string | undefined {
  return itemOf(site, item)?.version;
}

function pendingVersion(site: FleetSite, item: string): string | undefined {
  return itemOf(site, item)?.update ?? undefined;
}
