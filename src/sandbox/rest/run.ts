import { restTimestamp } from '../clock.js';
import { nsCode, type SandboxContext } from '../context.js';
import { KIND_NAMES, type KindName } from '../entries.js';
import { runSiteUpdates } from '../executor.js';
import type { FleetSite } from '../fleet-types.js';
import { errorReply, ok, type Reply, type SandboxRequest } from '../http-util.js';
import { isSite, listParam, param, restSite } from './params.js';

const REST_KINDS: Record<string, KindName[]> = {
  all: [...KIND_NAMES],
  wp: ['core'],
  plugins: ['plugins'],
  themes: ['themes'],
  translations: ['translations'],
};

function enqueue(ctx: SandboxContext, sites: readonly FleetSite[], kinds: KindName[]): string {
  const jobId = ctx.newJobId();
  ctx.jobs.enqueue(
    sites.map((site) => ({ siteId: site.id, kinds, slugs: null })),
    jobId,
  );
  return jobId;
}

/** `POST /updates/update`: synchronous in 6.1 (`type` ignored), started as a job in the spec. */
export function updateEverything(ctx: SandboxContext, req: SandboxRequest): Reply {
  const sites = ctx.store.sites();
  if (!ctx.quirks.restUpdateAllSync) {
    const kinds = REST_KINDS[String(param(req, 'type') ?? 'all')];
    if (!kinds) return errorReply(400, 'rest_invalid_param', 'Invalid parameter(s): type');
    return ok({ success: 1, message: 'Batch updates started.', job_id: enqueue(ctx, sites, kinds) });
  }
  if (sites.length > ctx.queueThreshold) {
    return ok({
      success: 1,
      message: 'Batch updates queued.',
      job_id: enqueue(ctx, sites, [...KIND_NAMES]),
      queued_count: 0,
    });
  }
  const summary = { total_updated: 0, total_errors: 0, sites_updated: 0 };
  for (const site of sites) {
    const result = runSiteUpdates(ctx, site, { kinds: KIND_NAMES });
    summary.total_updated += result.updated.length;
    summary.total_errors += result.errors.length + (result.siteError ? 1 : 0);
    if (result.updated.length > 0) summary.sites_updated += 1;
  }
  return ok({
    success: 1,
    message: 'Batch updates completed.',
    summary,
    last_time_start_batch_updates: restTimestamp(Date.now()),
  });
}

/** `POST /updates/{id_or_domain}/update`: suspended sites are refused (400) in both profiles. */
export function updateSite(ctx: SandboxContext, idOrDomain: string): Reply {
  const site = restSite(ctx, idOrDomain);
  if (!isSite(site)) return site;
  if (site.suspended) {
    return errorReply(
      400,
      nsCode(ctx, 'rest_updates_site_error'),
      'Website suspended. Please unsuspended the website and try again.',
    );
  }
  if (!ctx.quirks.restUpdateAllSync) {
    enqueue(ctx, [site], [...KIND_NAMES]);
    return ok({ success: 1, message: 'Site updates started.' });
  }
  runSiteUpdates(ctx, site, { kinds: KIND_NAMES });
  return ok({
    success: 1,
    message: 'Batch updates for the site completed.',
    summary: [],
    last_time_start_batch_updates: restTimestamp(Date.now()),
    site: { id: site.id, url: site.url, name: site.name },
  });
}

const UNDEFINED_ERROR = 'An undefined error occured. Please try again.';

/** `POST /updates/{id_or_domain}/update/wp`: failures are HTTP 200 with `success: 0`. */
export function updateSiteWp(ctx: SandboxContext, idOrDomain: string): Reply {
  const site = restSite(ctx, idOrDomain);
  if (!isSite(site)) return site;
  if (ctx.store.visible(site).core.length === 0)
    return ok({ success: 0, message: 'No WordPress update available.' });
  const result = runSiteUpdates(ctx, site, { kinds: ['core'] });
  const entry = result.updated[0];
  if (!entry) return ok({ success: 0, error: UNDEFINED_ERROR });
  return ok({
    success: 1,
    message: 'WordPress was updated to the latest version.',
    data: { old_version: entry.old_version, version: entry.new_version },
  });
}

const TITLE: Record<string, string> = { plugins: 'Plugins', themes: 'Themes', translations: 'Translations' };

/**
 * `POST /updates/{id_or_domain}/update/{plugins|themes|translations}` with optional `slug`.
 * Only listed slugs that are pending (after ignores) run; with `restRunSlugRequired` no slug
 * means nothing runs. Per-item results are keyed by slug, failures by the URL-encoded slug.
 */
export function updateSiteKind(
  ctx: SandboxContext,
  req: SandboxRequest,
  idOrDomain: string,
  kind: 'plugins' | 'themes' | 'translations',
): Reply {
  const site = restSite(ctx, idOrDomain);
  if (!isSite(site)) return site;
  const title = TITLE[kind] as string;
  if (kind !== 'translations' && site.flags[kind])
    return ok({ success: 0, message: `${title} ignored updates per site.` });
  const slugs = listParam(param(req, 'slug'));
  if (slugs.length === 0 && ctx.quirks.restRunSlugRequired)
    return ok({ success: 0, message: `No ${title} to update.` });
  const pending = new Set(ctx.store.visible(site)[kind].map((e) => e.slug));
  const chosen = slugs.length === 0 ? pending : new Set(slugs.filter((s) => pending.has(s)));
  if (chosen.size === 0) return ok({ success: 0, message: `No ${title} to update.` });
  if (site.offline) {
    const what = kind === 'translations' ? 'translations' : kind;
    return errorReply(
      500,
      nsCode(ctx, `rest_upgrade_${what}_of_site_error`),
      'No response from the child site server.',
    );
  }
  const result = runSiteUpdates(ctx, site, { kinds: [kind], slugs: chosen });
  if (ctx.quirks.restKindRunListedUntilSync && kind !== 'translations')
    listedUntilSync(ctx, site, result.updated);
  const data: Record<string, unknown> = {};
  for (const entry of result.updated) {
    data[entry.slug] = {
      success: 1,
      name: entry.name,
      old_version: entry.old_version,
      version: entry.new_version,
    };
  }
  for (const error of result.errors)
    data[encodeURIComponent(error.slug)] = { success: 0, error: error.message };
  return ok({ success: 1, data });
}

/**
 * Quirk `restKindRunListedUntilSync`: the child has the new version, the dashboard's stored data
 * keeps the old one and the pending entry until a sync applies the change (src/sandbox/sync.ts).
 */
function listedUntilSync(
  ctx: SandboxContext,
  site: FleetSite,
  updated: ReturnType<typeof runSiteUpdates>['updated'],
): void {
  ctx.store.changeSite(site, (record) => {
    for (const entry of updated) {
      if (entry.type !== 'plugin' && entry.type !== 'theme') continue;
      const item = (entry.type === 'plugin' ? record.plugins : record.themes).find(
        (i) => i.slug === entry.slug,
      );
      if (!item) continue;
      item.version = entry.old_version;
      item.update = entry.new_version;
      record.unsynced = [
        ...(record.unsynced ?? []),
        { type: entry.type, slug: entry.slug, version: entry.new_version },
      ];
    }
  });
}
