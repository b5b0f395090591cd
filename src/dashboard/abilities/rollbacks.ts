import { isSvcError } from '../../errors.js';
import type { CallOptions, SiteRollbacks } from '../client.js';
import { mapConcurrent } from '../concurrent.js';
import { isObject, type Json } from '../wire/json.js';
import type { AbilityCaller } from './call.js';

const ABILITY = 'get-site-updates-v1';

/**
 * One `get-site-updates-v1` call per site, `concurrency` at a time: the plugin and theme versions
 * WordPress rolled back there after a failed update (`rollback_items`). Undefined when the
 * dashboard does not offer the ability (the caller skips the read). A site the dashboard answers
 * about with an error, or an answer without `rollback_items`, reports none; failures of the
 * connection itself are thrown.
 */
export async function readRollbacks(
  caller: AbilityCaller,
  siteIds: readonly number[],
  concurrency: number,
  options: CallOptions = {},
): Promise<SiteRollbacks[] | undefined> {
  if (!caller.info(ABILITY)) return undefined;
  return mapConcurrent(siteIds, concurrency, async (siteId): Promise<SiteRollbacks> => {
    try {
      const body = await caller.call(
        ABILITY,
        { site_id_or_domain: siteId, types: ['plugins', 'themes'] },
        options.signal,
      );
      return { siteId, items: parseRollbackItems(body) };
    } catch (error) {
      if (isSvcError(error) && ['NOT_FOUND', 'FORBIDDEN', 'HTTP_ERROR'].includes(error.code))
        return { siteId, items: [], error: `${error.code}: ${error.message}` };
      throw error;
    }
  });
}

/**
 * `rollback_items: {plugins: [{slug, version, …}], themes: […]}`. The catalogue leaves the entries'
 * fields open: the attempted version is read from `version`, else `new_version`; an entry naming
 * no slug or version is skipped (nothing to hold).
 */
export function parseRollbackItems(body: Json | undefined): SiteRollbacks['items'] {
  if (!isObject(body) || !isObject(body.rollback_items)) return [];
  const lists = body.rollback_items;
  const items: SiteRollbacks['items'] = [];
  for (const [key, kind] of [
    ['plugins', 'plugin'],
    ['themes', 'theme'],
  ] as const) {
    const list = lists[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      if (!isObject(entry)) continue;
      const version = typeof entry.version === 'string' ? entry.version : entry.new_version;
      if (
        typeof entry.slug !== 'string' ||
        entry.slug === '' ||
        typeof version !== 'string' ||
        version === ''
      )
        continue;
      items.push({ kind, slug: entry.slug, version });
    }
  }
  return items;
}
