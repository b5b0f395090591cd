import type { SyncResult } from '../client.js';
import type { Connection } from '../connection.js';
import { parseBatchAction } from '../wire/writes.js';
import { restCall } from './call.js';

/** The global batch route's default item limit (filter `svc_rest_batch_items_limit`). */
export const BATCH_LIMIT = 100;

/**
 * Re-syncs sites through the global `/batch` route (`{sites:{sync:[ids]}}`), in chunks of at most
 * 100 IDs so no request is refused as a whole. Results come back in request order; an item
 * carrying its own `id` is matched by it. A site with no result (the response was `[]`) failed.
 * Sync is safe to repeat, so the calls are retried like reads.
 */
export async function syncSites(
  conn: Connection,
  siteIds: number[],
  signal?: AbortSignal,
): Promise<SyncResult> {
  const ids = [...new Set(siteIds)];
  const result: SyncResult = { synced: [], failed: [] };
  for (let start = 0; start < ids.length; start += BATCH_LIMIT) {
    const chunk = ids.slice(start, start + BATCH_LIMIT);
    const body = await restCall(conn, {
      method: 'POST',
      route: '/batch',
      body: { sites: { sync: chunk } },
      retry: true,
      signal,
    });
    const items = parseBatchAction(body, `REST POST /batch`, 'sites', 'sync');
    chunk.forEach((siteId, index) => {
      const item =
        items.find((i) => i.siteId === siteId) ??
        (items[index]?.siteId === undefined ? items[index] : undefined);
      if (!item)
        result.failed.push({
          siteId,
          code: 'not_run',
          message: 'the dashboard returned no result for this site',
        });
      else if (item.ok) result.synced.push(siteId);
      else result.failed.push({ siteId, code: item.code, message: item.message || 'sync failed' });
    });
  }
  return result;
}
