import { isSvcError } from '../../errors.js';
import type { InstalledItem } from '../../types.js';
import type { AbilityCaller } from '../abilities/call.js';
import type { InstalledRead, InstalledSearch, InstalledSearchResult } from '../client.js';
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

/**
 * Every plugin and theme installed on the given sites, with its version: the per-site listings
 * of both kinds, WINDOW sites at a time. A site the dashboard answers about with an error
 * (unknown, access denied, failed) is listed in `failed`; a failure of the connection throws.
 */
export async function readInstalled(
  caller: AbilityCaller,
  siteIds: readonly number[],
  signal?: AbortSignal,
): Promise<InstalledRead | undefined> {
  if (!caller.info(LISTS.plugin.ability) || !caller.info(LISTS.theme.ability)) return undefined;
  const items: InstalledItem[] = [];
  const failed: InstalledRead['failed'] = [];
  for (let start = 0; start < siteIds.length; start += WINDOW) {
    const window = siteIds.slice(start, start + WINDOW);
    const read = await Promise.all(window.map((siteId) => readSite(caller, siteId, signal)));
    for (const [index, answer] of read.entries()) {
      if ('message' in answer) failed.push({ siteId: window[index]!, message: answer.message });
      else for (const item of answer.items) items.push(item);
    }
  }
  return { items, failed };
}

async function readSite(
  caller: AbilityCaller,
  siteId: number,
  signal: AbortSignal | undefined,
): Promise<{ items: InstalledItem[] } | { message: string }> {
  const items: InstalledItem[] = [];
  try {
    for (const kind of ['plugin', 'theme'] as const) {
      const { ability, field } = LISTS[kind];
      const where = `ability ${caller.info(ability)?.name ?? ability}`;
      const body = await caller.call(ability, { site_id_or_domain: siteId }, signal);
      for (const [index, entry] of Reader.of(body, where).array(field).entries()) {
        const read = Reader.of(entry, where, `${field}[${index}]`);
        const slug = decodeSlug(read.string('slug'));
        const version = read.string('version');
        if (version === '') continue;
        items.push({ siteId, kind, slug, name: read.optionalString('name') ?? slug, version });
      }
    }
  } catch (error) {
    if (isSvcError(error) && ['NOT_FOUND', 'FORBIDDEN', 'HTTP_ERROR'].includes(error.code))
      return { message: `${error.code}: ${error.message}` };
    throw error;
  }
  return { items };
}
