import { SvcError } from '../../errors.js';
import { dashboardSiteCode, type ItemKind, type ItemRef } from '../../types.js';
import type { RunUpdatesRequest, RunUpdatesResult, UpdateError } from '../client.js';
import { sleep } from '../transport/limits.js';
import { typesValue, type WireError } from '../wire/common.js';
import { parseJobStatus, parseRunResponse } from '../wire/writes.js';
import type { AbilityCaller } from './call.js';
import { confirmationInput } from './gate.js';

export interface JobPolling {
  interval: number;
  timeout: number;
}

/**
 * Runs exactly the requested items on exactly the requested sites with `run-updates-v1`
 * (`site_ids_or_domains` + `types` + `specific_items`). The dashboard matches `specific_items`
 * by slug within `types`, so unless the caller checked that product (`productChecked`), kinds
 * whose slugs could collide (a theme and a translation folder of the same name, say) go into
 * separate calls: no unplanned item is ever touched. Empty site or
 * item lists are refused because the ability reads them as "everything".
 */
export async function runUpdates(
  caller: AbilityCaller,
  request: RunUpdatesRequest,
  polling: JobPolling,
  signal?: AbortSignal,
): Promise<RunUpdatesResult> {
  if (request.siteIds.length === 0 || request.items.length === 0) {
    throw new SvcError(
      'INTERNAL',
      'runUpdates needs at least one site and one item (empty lists mean "all" to the dashboard)',
    );
  }
  const result: RunUpdatesResult = { updated: [], errors: [] };
  const groups = request.productChecked ? [request.items] : collisionFreeGroups(request.items);
  for (const group of groups) {
    const input: Record<string, unknown> = {
      site_ids_or_domains: [...new Set(request.siteIds)],
      types: [...new Set(group.map((i) => typesValue(i.kind)))],
      specific_items: [...new Set(group.map((i) => i.slug))],
    };
    const siteIds = input.site_ids_or_domains as number[];
    const gate = await confirmationInput(caller, 'run-updates-v1', input, { siteIds, items: group }, signal);
    const name = caller.info('run-updates-v1')?.name ?? 'run-updates-v1';
    const response = parseRunResponse(
      await caller.call('run-updates-v1', { ...input, ...gate }, signal),
      `ability ${name}`,
    );
    result.errors.push(...response.errors.map(toUpdateError));
    if (response.skipped.length > 0) result.skipped = [...(result.skipped ?? []), ...response.skipped];
    if (!response.queued) {
      result.updated.push(
        ...response.updated.filter((u) => group.some((i) => i.kind === u.kind && i.slug === u.slug)),
      );
      continue;
    }
    result.jobId = response.jobId;
    const failedEarly = new Set(response.errors.map((e) => e.siteId));
    const job = await pollJob(caller, response.jobId, polling, request.onJobProgress, signal);
    result.errors.push(...job.errors);
    const failed = new Set([...failedEarly, ...job.errors.map((e) => e.siteId)]);
    for (const siteId of request.siteIds) {
      if (failed.has(siteId)) continue;
      if (job.timedOut) {
        result.errors.push({
          siteId,
          code: dashboardSiteCode('job_timed_out'),
          message: `queued job ${response.jobId} timed out before reporting this site`,
        });
        continue;
      }
      // The job reports failures only; every other requested item is taken as updated (apply re-reads).
      for (const item of group) result.updated.push({ siteId, kind: item.kind, slug: item.slug });
    }
  }
  return result;
}

/** Polls `get-batch-job-status-v1` until the job completes or fails (timeout → TIMEOUT). */
export async function pollJob(
  caller: AbilityCaller,
  jobId: string,
  polling: JobPolling,
  onProgress: RunUpdatesRequest['onJobProgress'],
  signal: AbortSignal | undefined,
): Promise<{ errors: UpdateError[]; timedOut: boolean }> {
  const started = Date.now();
  const name = caller.info('get-batch-job-status-v1')?.name ?? 'get-batch-job-status-v1';
  for (;;) {
    const status = parseJobStatus(
      await caller.call('get-batch-job-status-v1', { job_id: jobId }, signal),
      `ability ${name}`,
    );
    onProgress?.({ jobId, processed: status.processed, total: status.total });
    if (status.status === 'completed' || status.status === 'failed') {
      return { errors: status.errors.map(toUpdateError), timedOut: status.status === 'failed' };
    }
    if (Date.now() - started > polling.timeout) {
      throw new SvcError(
        'TIMEOUT',
        `queued update job ${jobId} did not finish within ${polling.timeout} ms`,
        {
          hint: 'The job keeps running on the dashboard; re-run plan later to see its effect.',
          details: { jobId },
        },
      );
    }
    await sleep(polling.interval, signal);
  }
}

function toUpdateError(error: WireError): UpdateError {
  const out: UpdateError = {
    siteId: error.siteId,
    code: dashboardSiteCode(error.code),
    message: error.message,
  };
  if (error.kind) out.kind = error.kind;
  if (error.slug) out.slug = error.slug;
  return out;
}

/** Slug shapes: plugins `<folder>/<file>.php`, core `wordpress`, themes/translations a folder. */
function couldMatch(slug: string, kind: ItemKind): boolean {
  if (kind === 'plugin') return slug.includes('/');
  if (kind === 'core') return slug === 'wordpress';
  return !slug.includes('/');
}

/** Splits items into groups where no item's slug could name a pending item of another kind in the group. */
export function collisionFreeGroups(items: ItemRef[]): ItemRef[][] {
  const groups: ItemRef[][] = [];
  for (const item of items) {
    const fits = (group: ItemRef[]) =>
      group.every(
        (other) =>
          other.kind === item.kind ||
          (!couldMatch(item.slug, other.kind) && !couldMatch(other.slug, item.kind)),
      );
    const group = groups.find(fits);
    if (group) group.push(item);
    else groups.push([item]);
  }
  return groups;
}
