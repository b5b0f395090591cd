import { siteStatus } from '../abilities/read.js';
import type { FleetIgnore, FleetItem, FleetSite } from '../fleet-types.js';

/**
 * A REST v2 site record as MainWP 6.1.2 sends it (`GET /sites`, `GET /sites/{id}`, the reply of
 * `POST /sites/{id}/edit`): every column a string (database values), the JSON columns as JSON
 * text, `tags` a list. Values the sandbox has no model for (sizes, posts, health) are fixed.
 */
export function siteRecord(site: FleetSite): Record<string, unknown> {
  const pendingCore = site.core.new !== null && site.core.new !== site.core.current;
  return {
    id: String(site.id),
    name: site.name,
    url: site.url,
    tags: [],
    note: '',
    ip: '',
    client_id: String(site.clientId ?? 0),
    is_staging: '0',
    wp_version: site.core.current,
    php_version: '8.2.0',
    child_version: site.connectorVersion,
    mysql_version: '10.11.0-MariaDB',
    memory_limit: '256M',
    database_size: '0',
    active_theme: site.themes[0]?.name ?? '',
    status: siteStatus(site),
    sync_errors: site.syncErrors ? 'sync error' : '',
    http_status: site.offline ? '-1' : '0',
    health_status: '0',
    health_score: '100',
    icon: '',
    last_sync: '2026-01-01T00:00:00',
    plugins: JSON.stringify(site.plugins.map((p) => ({ name: p.name, slug: p.slug, version: p.version }))),
    themes: JSON.stringify(site.themes.map((t) => ({ name: t.name, slug: t.slug, version: t.version }))),
    last_post_time: '0',
    recent_posts: '[]',
    recent_pages: '[]',
    recent_comments: '[]',
    categories: '[]',
    wp_upgrades: pendingCore ? JSON.stringify({ current: site.core.current, new: site.core.new }) : '[]',
    plugin_upgrades: upgrades(site.plugins, (p) => ({
      Name: p.name,
      Version: p.version,
      update: { new_version: p.update },
    })),
    premium_upgrades: '',
    theme_upgrades: upgrades(site.themes, (t) => ({
      Name: t.name,
      Version: t.version,
      update: { theme: t.slug, new_version: t.update },
    })),
    translation_upgrades: '[]',
    ignored_plugins: ignoredColumn(site.ignores.plugins),
    ignored_themes: ignoredColumn(site.ignores.themes),
    is_ignoreCoreUpdates: flag(site.flags.core),
    is_ignorePluginUpdates: flag(site.flags.plugins),
    is_ignoreThemeUpdates: flag(site.flags.themes),
    verify_certificate: '2',
    force_use_ipv4: '0',
    ssl_version: '0',
    suspended: flag(site.suspended),
  };
}

function flag(on: boolean): string {
  return on ? '1' : '0';
}

function upgrades(items: FleetItem[], entry: (item: FleetItem) => unknown): string {
  const pending = items.filter((item) => item.update !== null);
  if (pending.length === 0) return '[]';
  return JSON.stringify(Object.fromEntries(pending.map((item) => [item.slug, entry(item)])));
}

/**
 * The per-site ignore column: `{slug: {Name, ignored_versions}}`, empty as `''`. Entries the REST
 * per-slug ignore stored under list indices (quirk `restIgnoreSlugIndexBug`) make PHP's array a
 * list when they are all there is, as MainWP stores `[{"Name": slug, …}]`.
 */
function ignoredColumn(ignores: FleetIgnore[]): string {
  if (ignores.length === 0) return '';
  const value = (i: FleetIgnore) => ({
    Name: i.name,
    ignored_versions: i.versions === 'all' ? ['all_versions'] : i.versions,
  });
  const isList = ignores.every((i, index) => i.slug === String(index));
  if (isList) return JSON.stringify(ignores.map(value));
  return JSON.stringify(Object.fromEntries(ignores.map((i) => [i.slug, value(i)])));
}
