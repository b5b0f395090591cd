import { isSvcError } from '../../errors.js';
import type { CallOptions, SiteRollbacks } from '../client.js';
import { mapConcurrent } from '../concurrent.js';
import { decodeSlug, isObject, type Json } from '../wire/json.js';
import type { AbilityCaller } from './call.js';

const ABILITY = 'get-site-updates-v1';

/**
 * One `get-site-updates-v1` call per site, `concurrency` at a time: the plugin and theme versions
 * WordPress rolled back there after a failed update (`rollback_items`). Undefined when the
 * dashboard does not offer the ability (the caller skips the read). A site the dashboard answers
 * about with an error, or an answer without `rollback_items`, reports none; failures of the
 * connection itself are thrown.
 *
 * MainWP 6.1.2 under WordPress 6.9 cannot answer for a site that has a rollback to show: its
 * `rollback_items` is a map against its own schema's `type: array`, and WordPress's output check
 * turns the answer into HTTP 500 `ability_invalid_output` naming `rollback_items`
 * (wp-includes/abilities-api/class-wp-ability.php, validate_output). That error is itself the
 * evidence: the site reports `unnamed: true`, a rollback whose item is not said.
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
      if (!isSvcError(error) || !['NOT_FOUND', 'FORBIDDEN', 'HTTP_ERROR'].includes(error.code)) throw error;
      const said = `${error.code}: ${error.message}`;
      const unnamed =
        error.details?.dashboardCode === 'ability_invalid_output' && error.message.includes('rollback_items');
      return { siteId, items: [], error: said, ...(unnamed ? { unnamed: true } : {}) };
    }
  });
}

/**
 * `rollback_items: {plugins, themes}`. MainWP 6.1.2 sends each kind as a map from slug to the
 * entry it saved when WordPress rolled the item back, `{name, old_version, version, created,
 * error?}`, `version` being the version rolled back from (includes/rest-api/controller/version1/
 * class-mainwp-rest-api-v1-helper.php, handle_site_update_item; shown only while that version is
 * still the item's pending one: class/class-mainwp-updates-helper.php,
 * get_roll_items_updates_of_site), and `[]` when there is none. A list of entries naming their
 * `slug` (the catalogue's `type: array`) is read too. The version is `version`, else
 * `new_version`; an entry naming no slug or version is skipped (nothing to hold).
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
    const entries: Array<[string | undefined, Json]> = Array.isArray(list)
      ? list.map((entry) => [undefined, entry])
      : isObject(list)
        ? Object.entries(list)
        : [];
    for (const [mapSlug, entry] of entries) {
      if (!isObject(entry)) continue;
      const slug = typeof entry.slug === 'string' && entry.slug !== '' ? entry.slug : mapSlug;
      const version = typeof entry.version === 'string' ? entry.version : entry.new_version;
      if (!slug || typeof version !== 'string' || version === '') continue;
      items.push({ kind, slug: decodeSlug(slug), version });
    }
  }
  return items;
}
