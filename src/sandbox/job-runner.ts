import type { SandboxContext } from './context.js';
import { runSiteUpdates } from './executor.js';
import type { Job, JobWork, JobWorkResult } from './jobs.js';
import { syncSite } from './sync.js';

/**
 * The work of queued jobs, as a cron chunk of the dashboard does it: an update job runs the
 * site's selected updates, a sync job re-reads the site. The job queue itself (jobs.ts) only
 * keeps time and records; it is part of the context, so the work that needs the context is here.
 */
function runJobWork(ctx: SandboxContext, work: JobWork, type: Job['type']): JobWorkResult {
  const site = ctx.store.site(work.siteId);
  if (!site) {
    return {
      updated: [],
      errors: [
        {
          site_id: work.siteId,
          code: `${ctx.ns}_site_not_found`,
          message: `No site found with ID ${work.siteId}.`,
        },
      ],
    };
  }
  if (type === 'sync') {
    return syncSite(ctx, site)
      ? { updated: [], synced: true, errors: [] }
      : {
          updated: [],
          errors: [
            { site_id: site.id, code: `${ctx.ns}_site_offline`, message: 'Site is known to be offline.' },
          ],
        };
  }
  const result = runSiteUpdates(ctx, site, {
    kinds: work.kinds,
    slugs: work.slugs ? new Set(work.slugs) : undefined,
  });
  const errors = [...(result.siteError ? [result.siteError] : []), ...result.errors];
  return {
    updated: result.updated,
    errors: errors.map((e) => ({ site_id: e.site_id, code: e.code, message: e.message })),
  };
}

/** One cron tick of the sandbox's job queue (`JobTable.advance`) with this context's work. */
export function advanceJobs(ctx: SandboxContext): void {
  ctx.jobs.advance((work, type) => runJobWork(ctx, work, type));
}
