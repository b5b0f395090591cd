import type { SandboxContext } from '../context.js';
import type { FleetSite } from '../fleet-types.js';
import { phpMap } from './params.js';

export type MapKind = 'wp' | 'plugins' | 'themes' | 'translations';
export const MAP_KINDS: readonly MapKind[] = ['wp', 'plugins', 'themes', 'translations'];

/**
 * One site's pending updates in the REST map shape (dashboard-facts §6.2): `wp` `{current,new}`
 * or empty, `plugins`/`themes` slug → header data plus `update.new_version`, `translations` a
 * list. All four ignore mechanisms applied; `search` filters on `Name`.
 */
export function siteUpdateMap(
  ctx: SandboxContext,
  site: FleetSite,
  kinds: readonly MapKind[],
  search: string,
): Record<string, unknown> {
  const visible = ctx.store.visible(site);
  const needle = search.toLowerCase();
  const matches = (name: string): boolean => needle === '' || name.toLowerCase().includes(needle);
  const out: Record<string, unknown> = {};
  for (const kind of kinds) {
    if (kind === 'wp') {
      const core = visible.core[0];
      out.wp =
        core && matches('WordPress')
          ? { current: core.current_version, new: core.new_version }
          : phpMap(ctx, {});
    } else if (kind === 'translations') {
      out.translations = site.translations
        .filter((t) => matches(t.name))
        .map((t) => ({
          type: translationType(site, t.slug),
          slug: t.slug,
          language: t.language,
          version: t.version,
          name: t.name,
        }));
    } else {
      const map: Record<string, unknown> = {};
      for (const entry of visible[kind]) {
        if (!matches(entry.name)) continue;
        const field = kind === 'plugins' ? 'plugin' : 'theme';
        map[entry.slug] = {
          Name: entry.name,
          Version: entry.current_version,
          update: { [field]: entry.slug, new_version: entry.new_version },
        };
      }
      out[kind] = phpMap(ctx, map);
    }
  }
  return out;
}

function translationType(site: FleetSite, slug: string): 'core' | 'plugin' | 'theme' {
  if (slug === 'default') return 'core';
  return site.themes.some((t) => t.slug === slug) ? 'theme' : 'plugin';
}

/** `type` of the REST listings: all / wp / plugins / themes / translations. */
export function mapKindsFor(type: unknown): MapKind[] | undefined {
  if (type === undefined || type === null || type === '' || type === 'all') return [...MAP_KINDS];
  return MAP_KINDS.includes(type as MapKind) ? [type as MapKind] : undefined;
}
