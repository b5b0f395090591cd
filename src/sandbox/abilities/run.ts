import { nsCode, type SandboxContext } from '../context.js';
import { KIND_NAMES, KIND_OF_TYPE, type KindName } from '../entries.js';
import { type ErrorItem, isConnectorOutdated, runSiteUpdates, type UpdatedEntry } from '../executor.js';
import type { FleetSite } from '../fleet-types.js';
import { errorReply, ok, type Reply } from '../http-util.js';
import { type AbilityCall, kindsFrom, resolveSites, type SiteCall, slugSet } from './call.js';

interface MultiRun {
  updated: UpdatedEntry[];
  errors: ErrorItem[];
  sitesUpdated: number;
}

/**
 * Runs the selection over the sites now, or queues it when more than `queueThreshold`
 * accessible sites are involved. Offline sites are skipped with an error; suspended sites are
 * not skipped (release 6.1).
 */
function runMany(
  ctx: SandboxContext,
  sites: FleetSite[],
  preErrors: ErrorItem[],
  kinds: KindName[],
  slugs: Set<string> | undefined,
  withSiteName: boolean,
): MultiRun | Reply {
  if (sites.length > ctx.queueThreshold) {
    const jobId = ctx.newJobId();
    ctx.jobs.enqueue(
      sites.map((site) => ({ siteId: site.id, kinds, slugs: slugs ? [...slugs] : null })),
      jobId,
    );
    // With statusUrlMissingRoute the REST route behind this URL does not exist (404 rest_no_route).
    const statusUrl = `${ctx.baseUrl}/wp-json/${ctx.ns}/v2/jobs/${jobId}`;
    return ok({
      queued: true,
      job_id: jobId,
      status_url: statusUrl,
      updates_queued: sites.length,
      errors: preErrors,
    });
  }
  const run: MultiRun = { updated: [], errors: [...preErrors], sitesUpdated: 0 };
  for (const site of sites) {
    const result = runSiteUpdates(ctx, site, { kinds, slugs });
    if (result.siteError) {
      const { site_id, site_url, type, slug, code, message } = result.siteError;
      const site_name = site.name;
      run.errors.push(
        withSiteName ? { site_id, site_url, site_name, type, slug, code, message } : result.siteError,
      );
    }
    run.updated.push(...result.updated);
    // Item errors carry site_name wherever site errors do (update-all, not run-updates: facts §3.3).
    for (const { site_id, site_url, type, slug, code, message } of result.errors) {
      run.errors.push(
        withSiteName
          ? { site_id, site_url, site_name: site.name, type, slug, code, message }
          : { site_id, site_url, type, slug, code, message },
      );
    }
    if (result.updated.length > 0) run.sitesUpdated += 1;
  }
  return run;
}

function hasUpdates(ctx: SandboxContext, site: FleetSite): boolean {
  const visible = ctx.store.visible(site);
  return KIND_NAMES.some((kind) => visible[kind].length > 0);
}

function isReply(value: MultiRun | Reply): value is Reply {
  return 'status' in value;
}

function summaryOf(run: MultiRun): Record<string, number> {
  return {
    total_updated: run.updated.length,
    total_errors: run.errors.length,
    sites_updated: run.sitesUpdated,
  };
}

export function runUpdates(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const resolved = resolveSites(ctx, user, input.site_ids_or_domains, false);
  const everySite = !Array.isArray(input.site_ids_or_domains) || input.site_ids_or_domains.length === 0;
  // No sites: every site of the user in 6.1 (facts §3.4); "all sites with updates" in the spec.
  const sites =
    everySite && !ctx.quirks.runUpdatesEverySite
      ? resolved.sites.filter((site) => hasUpdates(ctx, site))
      : resolved.sites;
  const run = runMany(
    ctx,
    sites,
    resolved.errors,
    kindsFrom(input.types),
    slugSet(input.specific_items),
    false,
  );
  if (isReply(run)) return run;
  return ok({ updated: run.updated, errors: run.errors, summary: summaryOf(run) });
}

export function updateAll(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const resolved = resolveSites(ctx, user, input.site_ids_or_domains, true);
  const kinds = kindsFrom(input.types, ctx.quirks.emptyTypesMeansNothing);
  const run = runMany(ctx, resolved.sites, resolved.errors, kinds, undefined, true);
  if (isReply(run)) return run;
  if (ctx.quirks.abilityShippedOutputs)
    return ok({ updated: run.updated, errors: run.errors, summary: summaryOf(run) });
  const counts = { core: 0, plugins: 0, themes: 0, translations: 0 };
  for (const entry of run.updated) counts[KIND_OF_TYPE[entry.type]] += 1;
  return ok({ updated: counts, errors: run.errors, summary: summaryOf(run) });
}

/** Whole-call refusals of the single-site update abilities. */
function siteRefusal(ctx: SandboxContext, site: FleetSite): Reply | undefined {
  if (site.offline) return errorReply(400, nsCode(ctx, 'site_offline'), 'Site is known to be offline.');
  if (isConnectorOutdated(site))
    return errorReply(400, nsCode(ctx, 'child_outdated'), 'Child plugin version 4.0 or higher required.');
  return undefined;
}

export function updateSiteCore(ctx: SandboxContext, { site }: SiteCall): Reply {
  const refusal = siteRefusal(ctx, site);
  if (refusal) return refusal;
  if (ctx.store.visible(site).core.length === 0) {
    if (ctx.quirks.abilityShippedOutputs)
      return errorReply(404, nsCode(ctx, 'no_updates'), 'No core update available for this site.');
    return ok({
      site_id: site.id,
      site_url: site.url,
      updated: false,
      old_version: site.core.current,
      new_version: site.core.current,
    });
  }
  const result = runSiteUpdates(ctx, site, { kinds: ['core'] });
  const entry = result.updated[0];
  if (!entry)
    return errorReply(500, nsCode(ctx, 'update_failed'), result.errors[0]?.message ?? 'Core update failed.');
  if (ctx.quirks.abilityShippedOutputs) return ok({ updated: entry });
  return ok({
    site_id: site.id,
    site_url: site.url,
    updated: true,
    old_version: entry.old_version,
    new_version: entry.new_version,
  });
}

function updateSiteKind(ctx: SandboxContext, { site, input }: SiteCall, kind: KindName): Reply {
  const refusal = siteRefusal(ctx, site);
  if (refusal) return refusal;
  const result = runSiteUpdates(ctx, site, { kinds: [kind], slugs: slugSet(input.slugs) });
  if (ctx.quirks.abilityShippedOutputs) {
    // The shipped schema requires site_name on these error items (unlike run-updates-v1's).
    const site_name = site.name;
    const errors = result.errors.map(({ site_id, site_url, type, slug, code, message }) => ({
      site_id,
      site_url,
      site_name,
      type,
      slug,
      code,
      message,
    }));
    return ok({
      updated: result.updated,
      errors,
      summary: { total_updated: result.updated.length, total_errors: errors.length },
    });
  }
  if (kind === 'translations') {
    return ok({
      site_id: site.id,
      site_url: site.url,
      updated: result.updated.length > 0,
      translations_updated: result.updated.length,
    });
  }
  const updated = result.updated.map(({ slug, name, old_version, new_version }) => ({
    slug,
    name,
    old_version,
    new_version,
  }));
  return ok({
    site_id: site.id,
    site_url: site.url,
    updated,
    errors: result.errors,
    total_updated: updated.length,
  });
}

export const updateSitePlugins = (ctx: SandboxContext, call: SiteCall): Reply =>
  updateSiteKind(ctx, call, 'plugins');
export const updateSiteThemes = (ctx: SandboxContext, call: SiteCall): Reply =>
  updateSiteKind(ctx, call, 'themes');
export const updateSiteTranslations = (ctx: SandboxContext, call: SiteCall): Reply =>
  updateSiteKind(ctx, call, 'translations');
