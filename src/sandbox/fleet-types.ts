/**
 * The sandbox's state as plain JSON data. A fleet file is parsed into a `Fleet`; the store keeps
 * indexes over it, and a persisted state file is a `Fleet` plus the job table. Versions are
 * opaque strings; `update: null` means "nothing pending".
 */
export interface Fleet {
  sites: FleetSite[];
  users: FleetUser[];
  apiKeys: FleetApiKey[];
  globalIgnores: GlobalIgnores;
  /** Clients, tags and costs created through the global batch route. */
  records?: BatchRecords;
}

export interface NamedRecord {
  id: number;
  name: string;
  [field: string]: unknown;
}

export interface BatchRecords {
  clients: NamedRecord[];
  tags: NamedRecord[];
  costs: NamedRecord[];
}

export type IgnoredVersions = 'all' | string[];

export interface FleetSite {
  id: number;
  /** Absolute, with a trailing slash. */
  url: string;
  name: string;
  suspended: boolean;
  offline: boolean;
  syncErrors: boolean;
  connectorVersion: string;
  clientId: number | null;
  /** IDs of the site's tags (records in `Fleet.records.tags`), ascending; absent = none. */
  tagIds?: number[];
  core: { current: string; new: string | null };
  plugins: FleetItem[];
  themes: FleetItem[];
  /** Every listed translation is pending (the dashboard reports no new version for them). */
  translations: FleetTranslation[];
  ignores: { core: IgnoredVersions | null; plugins: FleetIgnore[]; themes: FleetIgnore[] };
  /** Site-wide "ignore the whole kind" flags (`is_ignoreCoreUpdates`, …). */
  flags: { core: boolean; plugins: boolean; themes: boolean };
  /** `<kind>:<slug>` items whose update fails on this site (svc_update_failed). */
  failUpdates: string[];
  /**
   * Updates done on the child site outside the dashboard that the dashboard has not synced yet:
   * the listings keep showing the stored data until a sync applies these.
   */
  unsynced?: UnsyncedChange[];
  /** Simulated time (ms) of the last sync; absent when the site was never synced. */
  lastSync?: number;
}

export interface UnsyncedChange {
  type: 'core' | 'plugin' | 'theme';
  slug: string;
  version: string;
}

export interface FleetItem {
  slug: string;
  name: string;
  version: string;
  update: string | null;
}

export interface FleetTranslation {
  slug: string;
  name: string;
  language: string;
  version: string;
}

export interface FleetIgnore {
  /** The stored key: a slug, or a list index when the REST per-slug ignore bug stored it. */
  slug: string;
  name: string;
  versions: IgnoredVersions;
}

export interface GlobalIgnores {
  core: IgnoredVersions | null;
  plugins: FleetIgnore[];
  themes: FleetIgnore[];
}

export type UserRole = 'administrator' | 'editor' | 'subscriber';

export interface FleetUser {
  username: string;
  applicationPassword: string;
  role: UserRole;
  /** Per-site access list; absent means every site. */
  sites?: number[];
}

export type KeyPermission = 'read' | 'write' | 'delete' | 'read_write';

export interface FleetApiKey {
  /** Display form `<consumer_secret>==<consumer_key>`. */
  token: string;
  permission: KeyPermission;
}

export function emptySite(id: number, url: string, name: string): FleetSite {
  return {
    id,
    url,
    name,
    suspended: false,
    offline: false,
    syncErrors: false,
    connectorVersion: '5.4',
    clientId: null,
    core: { current: '6.8.3', new: null },
    plugins: [],
    themes: [],
    translations: [],
    ignores: { core: null, plugins: [], themes: [] },
    flags: { core: false, plugins: false, themes: false },
    failUpdates: [],
  };
}

/** `https://a.example.test/` → `a.example.test` (how the dashboard derives `site_name`). */
export function bareDomain(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, '');
}
