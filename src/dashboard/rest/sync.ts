import { isSvcError } from '../../errors.js';
import type { SyncResult } from '../client.js';
import type { Connection } from '../connection.js';
import { parseBatchAction } from '../wire/writes.js';
import { restCall } from './call.js';

/** The global batch route's default item limit (filter `svc_rest_batch_items_limit`). */
export const BATCH_LIMIT = 100;

/**
 * Re-syncs sites through the global `/batch` route (`{sites:{sync:[ids]}}`), in chunks of at most
 * 100 IDs. A dashboard that lowered its limit refuses a chunk whole with 413 before anything ran,
 * so the chunk is halved and sent again (down to one ID), and later chunks keep the smaller
 * size. Results come back in request order; an item carrying its own `id` is matched by it. A
 * site with no result (the response was `[]`) failed. Sync is safe to repeat, so the calls are
 * retried like reads.
 */
export async function syncSites(
  conn: Connection,
  siteIds: number[],
  signal?: AbortSignal,
): Promise<SyncResult> {
  const ids = [...new Set(siteIds)];
  const result: SyncResult = { synced: [], failed: [] };
  let size = BATCH_LIMIT;
  for (let start = 0; start < ids.length; ) {
    const chunk = ids.slice(start, start + size);
    let body: Awaited<ReturnType<typeof restCall>>;
    try {
      body = await restCall(conn, {
        method: 'POST',
        route: '/batch',
        body: { sites: { sync: chunk } },
        retry: true,
        signal,
      });
    } catch (error) {
      if (size > 1 && isSvcError(error) && error.details.status === 413) {
        size = Math.max(1, Math.floor(chunk.length / 2));
        continue;
      }
      throw error;
    }
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
    start += chunk.length;
  }
  return result;
}
