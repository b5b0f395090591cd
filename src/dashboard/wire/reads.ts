import type { ItemKind, Site, SiteStatus } from '../../types.js';
import { parseErrors, parseKind, siteUrl, type WireError } from './common.js';
import { badShape, decodeSlug, isObject, type Json, type JsonObject, own, Reader } from './json.js';
import { StringPool } from './string-pool.js';

/** The per-site "ignore the whole kind" flags, when a site record shows them (§5 of the facts). */
export interface SiteFlags {
  core: boolean;
  plugin: boolean;
  theme: boolean;
}

export interface SitesPage {
  sites: Site[];
  /** Site-wide ignore flags of the sites whose records show them. */
  flags: Map<number, SiteFlags>;
  total: number;
}

const STATUSES: Record<string, SiteStatus> = {
  connected: 'connected',
  disconnected: 'disconnected',
  offline: 'disconnected',
  suspended: 'suspended',
};

/** `list-sites-v1`: `{items[], page, per_page, total}`. */
export function parseSitesPage(body: Json | undefined, where: string): SitesPage {
  const r = Reader.of(body, where);
  const flags = new Map<number, SiteFlags>();
  const sites = r.array('items').map((item, index) => {
    // The usual record inline; flags and anything unusual through the naming reader.
    if (isObject(item)) {
      const id = own(item, 'id');
      const url = own(item, 'url');
      const name = own(item, 'name');
      const status = own(item, 'status');
      const known =
        typeof status === 'string' && Object.hasOwn(STATUSES, status) ? STATUSES[status] : undefined;
      if (
        typeof id === 'number' &&
        Number.isInteger(id) &&
        typeof url === 'string' &&
        typeof name === 'string' &&
        known &&
        !hasFlagFields(item)
      ) {
        return { id, url: siteUrl(url), name, status: known };
      }
    }
    const s = Reader.of(item, where, `items[${index}]`);
    const statusText = s.string('status');
    const status = Object.hasOwn(STATUSES, statusText) ? STATUSES[statusText] : undefined;
    if (!status) throw badShape(where, s.field('status'), 'connected/disconnected/suspended', statusText);
    const url = siteUrl(s.string('url'));
    const site: Site = { id: s.int('id'), url, name: s.optionalString('name') ?? url, status };
    const siteFlags = readFlags(s);
    if (siteFlags) flags.set(site.id, siteFlags);
    return site;
  });
  return { sites, flags, total: r.int('total') };
}

const FLAG_FIELDS = [
  'ignore_core_updates',
  'is_ignoreCoreUpdates',
  'ignore_plugin_updates',
  'is_ignorePluginUpdates',
  'ignore_theme_updates',
  'is_ignoreThemeUpdates',
];

function hasFlagFields(item: JsonObject): boolean {
  return FLAG_FIELDS.some((key) => Object.hasOwn(item, key));
}

/** The site-wide flags a site record shows (REST `GET /sites`), or undefined when it shows none. */
export function siteFlagsOf(item: Json, where: string, path: string): SiteFlags | undefined {
  return readFlags(Reader.of(item, where, path));
}

/** Flags under either spelling the dashboard uses (`ignore_core_updates`, `is_ignoreCoreUpdates`). */
function readFlags(s: Reader): SiteFlags | undefined {
  const read = (a: string, b: string): boolean | undefined => {
    for (const key of [a, b]) if (s.has(key)) return isOn(s.raw(key));
    return undefined;
  };
  const core = read('ignore_core_updates', 'is_ignoreCoreUpdates');
  const plugin = read('ignore_plugin_updates', 'is_ignorePluginUpdates');
  const theme = read('ignore_theme_updates', 'is_ignoreThemeUpdates');
  if (core === undefined && plugin === undefined && theme === undefined) return undefined;
  return { core: core ?? false, plugin: plugin ?? false, theme: theme ?? false };
}

function isOn(value: Json | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** Shaped exactly like the domain's PendingUpdate, so the reader hands entries on without copying. */
export interface WireUpdate {
  siteId: number;
  kind: ItemKind;
  slug: string;
  name: string;
  from: string;
  to: string;
}

export interface UpdatesPage {
  updates: WireUpdate[];
  total: number;
  errors: WireError[];
}

/** `list-updates-v1`: `{updates[], summary, page, per_page, total, errors[]?}`. */
export function parseUpdatesPage(
  body: Json | undefined,
  where: string,
  pool: StringPool = new StringPool(),
): UpdatesPage {
  const r = Reader.of(body, where);
  const updates = r
    .array('updates')
    .map((item, index) => parseUpdateEntry(item, where, 'updates', index, pool));
  return { updates, total: r.int('total'), errors: parseErrors(r.optionalArray('errors'), where) };
}

/**
 * One update entry. Pages hold tens of thousands of them, so the usual shape is checked inline
 * without allocating; anything else (alternative field names, numeric strings, errors) takes the
 * general path, which also names the offending field.
 */
export function parseUpdateEntry(
  item: Json,
  where: string,
  list: string,
  index: number,
  pool?: StringPool,
): WireUpdate {
  if (isObject(item)) {
    const siteId = own(item, 'site_id');
    const type = own(item, 'type');
    const slug = own(item, 'slug');
    const name = own(item, 'name');
    const from = own(item, 'current_version');
    const to = own(item, 'new_version');
    const kind = typeof type === 'string' ? KIND_OF.get(type) : undefined;
    if (
      typeof siteId === 'number' &&
      Number.isInteger(siteId) &&
      kind !== undefined &&
      typeof slug === 'string' &&
      typeof name === 'string' &&
      typeof from === 'string' &&
      typeof to === 'string' &&
      (to !== '' || kind === 'translation')
    ) {
      if (pool)
        return {
          siteId,
          kind,
          slug: pool.of(decodeSlug(slug)),
          name: pool.of(name),
          from: pool.of(from),
          to: pool.of(to),
        };
      return { siteId, kind, slug: decodeSlug(slug), name, from, to };
    }
  }
  return parseUpdateEntrySlowly(item, where, `${list}[${index}]`);
}

const KIND_OF = new Map<string, ItemKind>([
  ['core', 'core'],
  ['plugin', 'plugin'],
  ['theme', 'theme'],
  ['translation', 'translation'],
]);

function parseUpdateEntrySlowly(item: Json, where: string, path: string): WireUpdate {
  const e = Reader.of(item, where, path);
  const kind = parseKind(e.string('type'), where, e.field('type'));
  const slug = decodeSlug(e.string('slug'));
  const out: WireUpdate = {
    siteId: e.int('site_id'),
    kind,
    slug,
    name: e.optionalString('name') ?? e.optionalString('Name') ?? slug,
    from:
      e.optionalString('current_version') ?? e.optionalString('from') ?? e.optionalString('Version') ?? '',
    to: e.optionalString('new_version') ?? e.optionalString('to') ?? '',
  };
  if (kind !== 'translation' && out.to === '') throw badShape(where, e.field('new_version'), 'a version', '');
  return out;
}

export interface WireIgnore {
  siteId: number;
  kind: 'core' | 'plugin' | 'theme';
  slug: string;
  versions: 'all' | string[];
  /** The stored display name; the abilities store the slug here (evidence of a per-site ignore). */
  name?: string;
}

export interface IgnoredListing {
  ignored: WireIgnore[];
  total: number | undefined;
  errors: WireError[];
}

/** `list-ignored-updates-v1`: `{ignored[], total, errors[]?}`; `ignored_version` "all_versions" or a comma list. */
export function parseIgnoredListing(
  body: Json | undefined,
  where: string,
  pool: StringPool = new StringPool(),
): IgnoredListing {
  const r = Reader.of(body, where);
  const ignored = r.array('ignored').map((item, index) => parseIgnoredEntry(item, where, index, pool));
  return { ignored, total: r.optionalInt('total'), errors: parseErrors(r.optionalArray('errors'), where) };
}

/** Like update entries: the usual shape inline, everything else through the naming reader. */
function parseIgnoredEntry(item: Json, where: string, index: number, pool: StringPool): WireIgnore {
  if (isObject(item)) {
    const siteId = own(item, 'site_id');
    const type = own(item, 'type');
    const slug = own(item, 'slug');
    const version = own(item, 'ignored_version');
    const name = own(item, 'name');
    const kind = typeof type === 'string' ? KIND_OF.get(type) : undefined;
    if (
      typeof siteId === 'number' &&
      Number.isInteger(siteId) &&
      kind !== undefined &&
      kind !== 'translation' &&
      typeof slug === 'string' &&
      version === 'all_versions'
    ) {
      const out: WireIgnore = { siteId, kind, slug: pool.of(decodeSlug(slug)), versions: 'all' };
      if (typeof name === 'string') out.name = pool.of(name);
      return out;
    }
  }
  const e = Reader.of(item, where, `ignored[${index}]`);
  const kind = parseKind(e.string('type'), where, e.field('type'));
  if (kind === 'translation') throw badShape(where, e.field('type'), 'core/plugin/theme', 'translation');
  const out: WireIgnore = {
    siteId: e.int('site_id'),
    kind,
    slug: decodeSlug(e.string('slug')),
    versions: parseVersions(e),
  };
  const name = e.optionalString('name');
  if (name !== undefined) out.name = name;
  return out;
}

function parseVersions(e: Reader): 'all' | string[] {
  const raw = e.raw('ignored_version') ?? e.raw('ignored_versions');
  const list = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : undefined;
  if (raw === undefined || raw === null || raw === '') return 'all';
  if (!list) throw badShape(e.where, e.field('ignored_version'), 'a version list', raw);
  const versions = list.map((v) => v.trim()).filter((v) => v !== '');
  if (versions.length === 0 || versions.includes('all_versions')) return 'all';
  return [...new Set(versions)].sort();
}
