import type { FleetIgnore, FleetItem, FleetSite, GlobalIgnores, IgnoredVersions } from './fleet-types.js';

export type EntryType = 'core' | 'plugin' | 'theme' | 'translation';
/** Plural kind names as the abilities' `types` input spells them. */
export type KindName = 'core' | 'plugins' | 'themes' | 'translations';
export const KIND_NAMES: readonly KindName[] = ['core', 'plugins', 'themes', 'translations'];
export const ENTRY_TYPE: Record<KindName, EntryType> = {
  core: 'core',
  plugins: 'plugin',
  themes: 'theme',
  translations: 'translation',
};

/** An update entry exactly as the abilities send it (dashboard-facts §3.3). */
export interface UpdateEntry {
  site_id: number;
  site_url: string;
  site_name: string;
  type: EntryType;
  slug: string;
  name: string;
  current_version: string;
  new_version: string;
}

/** Counts per kind plus `total`, as the abilities' `summary` sends them. */
export type UpdateSummary = Record<KindName | 'total', number>;

export function summarize(entries: readonly UpdateEntry[]): UpdateSummary {
  const summary: UpdateSummary = { core: 0, plugins: 0, themes: 0, translations: 0, total: entries.length };
  for (const entry of entries) summary[KIND_OF_TYPE[entry.type]] += 1;
  return summary;
}

export const KIND_OF_TYPE: Record<EntryType, KindName> = {
  core: 'core',
  plugin: 'plugins',
  theme: 'themes',
  translation: 'translations',
};

/** A site's pending updates after all four ignore mechanisms, in the dashboard's order. */
export type VisibleUpdates = Record<KindName, UpdateEntry[]>;

export const CORE_SLUG = 'wordpress';

export function isIgnored(versions: IgnoredVersions | null | undefined, version: string): boolean {
  if (!versions) return false;
  return versions === 'all' || versions.includes(version);
}

/** Builds entries with one literal shape (fast to create, monomorphic for the serialiser). */
function entry(
  site: FleetSite,
  siteName: string,
  type: EntryType,
  slug: string,
  name: string,
  from: string,
  to: string,
): UpdateEntry {
  return {
    site_id: site.id,
    site_url: site.url,
    site_name: siteName,
    type,
    slug,
    name,
    current_version: from,
    new_version: to,
  };
}

function ignoredIn(list: FleetIgnore[], slug: string, version: string): boolean {
  for (const ignore of list) if (ignore.slug === slug && isIgnored(ignore.versions, version)) return true;
  return false;
}

function pushItems(
  out: UpdateEntry[],
  site: FleetSite,
  siteName: string,
  type: 'plugin' | 'theme',
  items: FleetItem[],
  own: FleetIgnore[],
  shared: FleetIgnore[],
): void {
  for (const item of items) {
    const to = item.update;
    if (!to || ignoredIn(own, item.slug, to) || ignoredIn(shared, item.slug, to)) continue;
    out.push(entry(site, siteName, type, item.slug, item.name, item.version, to));
  }
}

export function visibleUpdates(site: FleetSite, global: GlobalIgnores): VisibleUpdates {
  const siteName = site.name;
  const result: VisibleUpdates = { core: [], plugins: [], themes: [], translations: [] };
  const core = site.core;
  if (
    core.new &&
    !site.flags.core &&
    !isIgnored(site.ignores.core, core.new) &&
    !isIgnored(global.core, core.new)
  ) {
    result.core.push(entry(site, siteName, 'core', CORE_SLUG, 'WordPress', core.current, core.new));
  }
  if (!site.flags.plugins)
    pushItems(result.plugins, site, siteName, 'plugin', site.plugins, site.ignores.plugins, global.plugins);
  if (!site.flags.themes)
    pushItems(result.themes, site, siteName, 'theme', site.themes, site.ignores.themes, global.themes);
  for (const t of site.translations) {
    result.translations.push(entry(site, siteName, 'translation', t.slug, t.name, t.version, ''));
  }
  return result;
}

/** An ignored entry as list-ignored-updates-v1 sends it (global ignores repeated per site). */
export interface IgnoredEntry {
  site_id: number;
  site_url: string;
  site_name: string;
  type: 'core' | 'plugin' | 'theme';
  slug: string;
  name: string;
  ignored_version: string;
}

export function ignoredEntries(
  site: FleetSite,
  global: GlobalIgnores,
  kinds: ReadonlySet<string>,
): IgnoredEntry[] {
  const base = { site_id: site.id, site_url: site.url, site_name: site.name };
  const out: IgnoredEntry[] = [];
  const versionText = (v: IgnoredVersions): string => (v === 'all' ? 'all_versions' : v.join(','));
  if (kinds.has('core')) {
    for (const versions of [site.ignores.core, global.core]) {
      if (versions)
        out.push({
          ...base,
          type: 'core',
          slug: CORE_SLUG,
          name: 'WordPress',
          ignored_version: versionText(versions),
        });
    }
  }
  for (const [kind, type, own, shared] of [
    ['plugins', 'plugin', site.ignores.plugins, global.plugins],
    ['themes', 'theme', site.ignores.themes, global.themes],
  ] as const) {
    if (!kinds.has(kind)) continue;
    for (const entry of [...own, ...shared]) {
      out.push({
        ...base,
        type,
        slug: entry.slug,
        name: entry.name,
        ignored_version: versionText(entry.versions),
      });
    }
  }
  return out;
}

/** Why a pending update is not listed (the next release's `skipped[].reason`). */
export type HiddenReason = 'ignored_site' | 'ignored_global' | 'ignored_site_flag';

export interface HiddenEntry extends UpdateEntry {
  reason: HiddenReason;
}

/**
 * The pending core, plugin and theme updates an ignore hides, each with the mechanism that hides
 * it (a site-wide flag first, then the per-site entry, then the global list).
 */
export function hiddenUpdates(site: FleetSite, global: GlobalIgnores): Record<KindName, HiddenEntry[]> {
  const siteName = site.name;
  const out: Record<KindName, HiddenEntry[]> = { core: [], plugins: [], themes: [], translations: [] };
  const hide = (e: UpdateEntry, reason: HiddenReason | undefined, list: HiddenEntry[]): void => {
    if (reason) list.push({ ...e, reason });
  };
  if (site.core.new) {
    const to = site.core.new;
    const reason = site.flags.core
      ? 'ignored_site_flag'
      : isIgnored(site.ignores.core, to)
        ? 'ignored_site'
        : isIgnored(global.core, to)
          ? 'ignored_global'
          : undefined;
    hide(entry(site, siteName, 'core', CORE_SLUG, 'WordPress', site.core.current, to), reason, out.core);
  }
  for (const [kind, type, items, own, shared] of [
    ['plugins', 'plugin', site.plugins, site.ignores.plugins, global.plugins],
    ['themes', 'theme', site.themes, site.ignores.themes, global.themes],
  ] as const) {
    for (const item of items) {
      const to = item.update;
      if (!to) continue;
      const reason = site.flags[kind]
        ? 'ignored_site_flag'
        : ignoredIn(own, item.slug, to)
          ? 'ignored_site'
          : ignoredIn(shared, item.slug, to)
            ? 'ignored_global'
            : undefined;
      hide(entry(site, siteName, type, item.slug, item.name, item.version, to), reason, out[kind]);
    }
  }
  return out;
}
