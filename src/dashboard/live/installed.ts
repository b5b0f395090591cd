import type { AbilityCaller } from '../abilities/call.js';
import type { InstalledSearch, InstalledSearchResult } from '../client.js';
import { decodeSlug, Reader } from '../wire/json.js';

/** Sites whose installed lists are requested at once; the transport paces what is in flight. */
const WINDOW = 32;

const LISTS = {
  plugin: { ability: 'get-site-plugins-v1', field: 'plugins' },
  theme: { ability: 'get-site-themes-v1', field: 'themes' },
} as const;

/**
 * Looks for plugin and theme slugs among the items installed on the given sites (the per-site
 * `get-site-plugins-v1` / `-themes-v1` listings: no listing covers the fleet), site by site in
 * order, and stops as soon as every slug has been found. A slug not found was looked for on every
 * given site. Undefined when the dashboard offers no installed-item listing for a kind asked for.
 */
export async function searchInstalled(
  caller: AbilityCaller,
  search: InstalledSearch,
  signal?: AbortSignal,
): Promise<InstalledSearchResult | undefined> {
  const wanted = { plugin: new Set(search.plugins), theme: new Set(search.themes) };
  const kinds = (['plugin', 'theme'] as const).filter((kind) => wanted[kind].size > 0);
  if (kinds.some((kind) => !caller.info(LISTS[kind].ability))) return undefined;
  const found = { plugin: new Set<string>(), theme: new Set<string>() };
  const installed = { plugin: new Set<string>(), theme: new Set<string>() };
  const missing = () => kinds.some((kind) => found[kind].size < wanted[kind].size);
  let sitesRead = 0;
  for (let start = 0; start < search.siteIds.length && missing(); start += WINDOW) {
    const window = search.siteIds.slice(start, start + WINDOW);
    await Promise.all(
      window.flatMap((siteId) =>
        kinds.map(async (kind) => {
          const { ability, field } = LISTS[kind];
          const where = `ability ${caller.info(ability)?.name ?? ability}`;
          const body = await caller.call(ability, { site_id_or_domain: siteId }, signal);
          for (const [index, item] of Reader.of(body, where).array(field).entries()) {
            const slug = decodeSlug(Reader.of(item, where, `${field}[${index}]`).string('slug'));
            installed[kind].add(slug);
            if (wanted[kind].has(slug)) found[kind].add(slug);
          }
        }),
      ),
    );
    sitesRead += window.length;
    search.onProgress?.(sitesRead, search.siteIds.length);
  }
  return { found, installed, sitesRead };
}
