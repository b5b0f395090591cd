import type { SyncResult } from '../client.js';
import { parseSyncResponse } from '../wire/sync.js';
import type { AbilityCaller } from './call.js';
import { type JobPolling, pollJob } from './run-updates.js';

/**
 * Re-syncs sites with `sync-sites-v1` (the application password suffices; no REST key), in
 * calls of at most `chunkSize` sites so the dashboard answers at once. A call it queues anyway
 * is followed with `get-batch-job-status-v1` until the job ends; every site the job reports no
 * error for counts as synced.
 */
export async function syncSitesViaAbility(
  caller: AbilityCaller,
  siteIds: number[],
  chunkSize: number,
  polling: JobPolling,
  signal?: AbortSignal,
): Promise<SyncResult> {
  const ids = [...new Set(siteIds)];
  const result: SyncResult = { synced: [], failed: [] };
  const name = caller.info('sync-sites-v1')?.name ?? 'sync-sites-v1';
  for (let start = 0; start < ids.length; start += chunkSize) {
    const chunk = ids.slice(start, start + chunkSize);
    const response = parseSyncResponse(
      await caller.call('sync-sites-v1', { site_ids_or_domains: chunk }, signal),
      `ability ${name}`,
    );
    const failed = new Map<number, { code: string; message: string }>();
    for (const error of response.errors) {
      if (/^\d+$/.test(error.ref)) failed.set(Number(error.ref), error);
    }
    if (response.queued) {
      const job = await pollJob(caller, response.jobId, polling, undefined, signal);
      for (const error of job.errors) failed.set(error.siteId, error);
      for (const siteId of chunk) {
        const error = failed.get(siteId);
        if (error) result.failed.push({ siteId, code: error.code, message: error.message });
        else if (job.timedOut)
          result.failed.push({
            siteId,
            code: 'job_timed_out',
            message: `sync job ${response.jobId} timed out`,
          });
        else result.synced.push(siteId);
      }
      continue;
    }
    const synced = new Set(response.synced);
    for (const siteId of chunk) {
      const error = failed.get(siteId);
      if (synced.has(siteId)) result.synced.push(siteId);
      else
        result.failed.push({
          siteId,
          code: error?.code ?? 'not_run',
          message: error?.message || 'the dashboard did not sync this site',
        });
    }
  }
  return result;
}
