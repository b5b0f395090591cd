import { canAccess, nsCode, type SandboxContext } from '../context.js';
import { ignoredEntries, summarize, type UpdateEntry, type UpdateSummary } from '../entries.js';
import type { FleetSite } from '../fleet-types.js';
import type { RollbackItems } from '../health-faults.js';
import { errorReply, ok, type Reply } from '../http-util.js';
import { advanceJobs } from '../job-runner.js';
import { JOB_PREFIXES, jobStatusBody } from '../jobs.js';
import { type AbilityCall, kindsFrom, pageOf, resolveSites, type SiteCall } from './call.js';

export function siteStatus(site: FleetSite): 'connected' | 'disconnected' | 'suspended' {
  if (site.suspended) return 'suspended';
  return site.offline || site.syncErrors ? 'disconnected' : 'connected';
}

/** Status filter `available_update` (MainWP 6.1.2): sites with a pending update the listings show. */
function hasVisibleUpdate(ctx: SandboxContext, site: FleetSite): boolean {
  const visible = ctx.store.visible(site);
  return (
    visible.core.length + visible.plugins.length + visible.themes.length + visible.translations.length > 0
  );
}

export function listSites(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const page = (input.page as number | undefined) ?? 1;
  const perPage = (input.per_page as number | undefined) ?? 20;
  const status = (input.status as string | undefined) ?? 'any';
  const search = ((input.search as string | undefined) ?? '').toLowerCase();
  const sites = ctx.store
    .sites()
    .filter(
      (site) =>
        canAccess(user, site) &&
        (status === 'any' ||
          siteStatus(site) === status ||
          (status === 'available_update' && hasVisibleUpdate(ctx, site))) &&
        (search === '' ||
          site.url.toLowerCase().includes(search) ||
          site.name.toLowerCase().includes(search)) &&
        (input.client_id === undefined || site.clientId === input.client_id) &&
        (input.tag_id === undefined || (site.tagIds ?? []).includes(input.tag_id as number)),
    );
  const items = pageOf(sites, page, perPage).map((site) => ({
    id: site.id,
    url: site.url,
    name: site.name,
    status: siteStatus(site),
    client_id: site.clientId,
  }));
  return ok({ items, page, per_page: perPage, total: sites.length });
}

/**
 * Pages over the flattened list; `summary` and `total` count every item, not the page. The
 * whole-fleet read (the hot path of plan benchmarks) serves cached pages of the cached list.
 */
export function listUpdates(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const page = (input.page as number | undefined) ?? 1;
  const perPage = (input.per_page as number | undefined) ?? 50;
  const kinds = kindsFrom(input.types);
  const filtered = Array.isArray(input.site_ids_or_domains) && input.site_ids_or_domains.length > 0;
  if (!filtered && user.sites === undefined) {
    // Unfiltered, MainWP builds every site's list for each page it serves.
    const siteWork = ctx.store.sites().length;
    const flat = ctx.store.flat(kinds);
    const key = `${page}/${perPage}`;
    let json = flat.pages.get(key);
    if (!json) {
      json = Buffer.from(updatesPage(ctx, flat.entries, flat.summary, page, perPage, []));
      flat.pages.set(key, json);
    }
    return { status: 200, body: undefined, json, siteWork: { sites: siteWork, timed: true } };
  }
  const resolved = resolveSites(ctx, user, input.site_ids_or_domains, true);
  const list: UpdateEntry[] = [];
  for (const site of resolved.sites) {
    const visible = ctx.store.visible(site);
    for (const kind of kinds) list.push(...visible[kind]);
  }
  return {
    status: 200,
    body: undefined,
    json: updatesPage(ctx, list, summarize(list), page, perPage, resolved.errors),
    siteWork: { sites: resolved.sites.length, timed: true },
  };
}

/** The list-updates-v1 body, built from cached entry JSON (entries are never re-serialised). */
function updatesPage(
  ctx: SandboxContext,
  entries: readonly UpdateEntry[],
  summary: UpdateSummary,
  page: number,
  perPage: number,
  errors: unknown[],
): string {
  const updates = pageOf(entries, page, perPage)
    .map((entry) => ctx.store.json(entry))
    .join(',');
  const tail = ctx.quirks.abilityShippedOutputs ? `,"errors":${JSON.stringify(errors)}` : '';
  return `{"updates":[${updates}],"summary":${JSON.stringify(summary)},"page":${page},"per_page":${perPage},"total":${summary.total}${tail}}`;
}

export function getSiteUpdates(ctx: SandboxContext, { input, site }: SiteCall): Reply {
  const kinds = kindsFrom(input.types, ctx.quirks.emptyTypesMeansNothing);
  const visible = ctx.store.visible(site);
  const entries = kinds.flatMap((kind) => visible[kind]);
  const summary = summarize(entries);
  const head = {
    site_id: site.id,
    site_url: site.url,
    site_name: entries[0]?.site_name ?? site.url.replace(/^https?:\/\/|\/$/g, ''),
  };
  if (ctx.quirks.abilityShippedOutputs) {
    const rollbackItems = rollbackItemsOf(ctx, site);
    const invalid = invalidRollbackOutput(ctx, rollbackItems);
    if (invalid) return invalid;
    return ok({ ...head, updates: entries, summary, rollback_items: rollbackItems });
  }
  const updates = entries.map(({ type, slug, name, current_version, new_version }) => ({
    type,
    slug,
    name,
    current_version,
    new_version,
  }));
  return ok({ ...head, updates, summary });
}

/**
 * Most entries the paged ignored listing serves a page. The schema declares no maximum (spec §8
 * leaves it unstated); like many WordPress listings the sandbox clamps larger asks silently.
 */
export const IGNORED_PER_PAGE_MAX = 1000;

/**
 * Global ignores repeat for every site; site-wide flags are not listed (dashboard-facts §5). The
 * whole-fleet listing is served from the store's cached list, so a page costs O(page).
 */
export function listIgnored(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const types =
    Array.isArray(input.types) && input.types.length > 0 ? input.types : ['core', 'plugins', 'themes'];
  const kinds = new Set(types.map(String));
  const filtered = Array.isArray(input.site_ids_or_domains) && input.site_ids_or_domains.length > 0;
  const resolved =
    filtered || user.sites !== undefined
      ? resolveSites(ctx, user, input.site_ids_or_domains, true)
      : { sites: undefined, errors: [] };
  const ignored = resolved.sites
    ? resolved.sites.flatMap((site) => ignoredEntries(site, ctx.store.global, kinds))
    : ctx.store.ignoredFlat(kinds);
  if (ctx.quirks.ignoredListingIndexSlug500) {
    // PHP turns a key written as a canonical decimal integer ("0", "123"; not "0123" or "1e5")
    // into an integer, which the output schema's string slug refuses.
    const index = ignored.findIndex((entry) => /^(0|-?[1-9]\d{0,17})$/.test(entry.slug));
    if (index >= 0) {
      // WordPress sends this error with `data: null` (no status in it).
      const message = `Ability "${ctx.ns}/list-ignored-updates-v1" has invalid output. Reason: output[ignored][${index}][slug] is not of type string.`;
      return { status: 500, body: { code: 'ability_invalid_output', message, data: null } };
    }
  }
  // The listing reads the ignore lists of the sites it covers (every site without a filter).
  const siteWork = { sites: resolved.sites?.length ?? ctx.store.sites().length, timed: false };
  if (ctx.quirks.ignoredListingNoPaging) {
    const reply = ok({
      ignored,
      total: ignored.length,
      ...(ctx.quirks.abilityShippedOutputs ? { errors: resolved.errors } : {}),
    });
    return { ...reply, siteWork };
  }
  const page = (input.page as number | undefined) ?? 1;
  const perPage = Math.min((input.per_page as number | undefined) ?? 50, IGNORED_PER_PAGE_MAX);
  const body: Record<string, unknown> = { ignored: pageOf(ignored, page, perPage), total: ignored.length };
  if (ctx.quirks.abilityShippedOutputs) body.errors = resolved.errors;
  return { ...ok(body), siteWork };
}

export function jobStatus(ctx: SandboxContext, { input }: AbilityCall): Reply {
  const id = String(input.job_id);
  if (!JOB_PREFIXES.some((prefix) => id.startsWith(prefix))) {
    return errorReply(400, nsCode(ctx, 'invalid_job_id'), 'Invalid job ID format.');
  }
  const job = ctx.jobs.find(id);
  if (!job) return errorReply(404, nsCode(ctx, 'job_not_found'), 'Job not found.');
  ctx.jobs.stepFast(job);
  advanceJobs(ctx);
  return ok(jobStatusBody(job));
}

function rollbackItemsOf(ctx: SandboxContext, site: FleetSite): RollbackItems {
  return ctx.healthFaults.rollbacks(site.id, (kind) => {
    const pending = new Map<string, string>();
    for (const item of kind === 'plugin' ? site.plugins : site.themes)
      if (item.update !== null) pending.set(item.slug, item.update);
    return pending;
  });
}

/**
 * MainWP 6.1.2 fills `rollback_items.plugins` / `.themes` with a map keyed by slug, against its
 * own output schema (`type: array`); WordPress 6.9 validates every ability's output
 * (wp-includes/abilities-api/class-wp-ability.php, validate_output; rest_is_array refuses a map
 * with string keys), so the answer is an error without a status: HTTP 500. Only a site with a
 * rollback of a still-pending version gets it; an empty list (`[]`) passes.
 */
function invalidRollbackOutput(ctx: SandboxContext, items: RollbackItems): Reply | undefined {
  const bad = (['plugins', 'themes'] as const).find((key) => !Array.isArray(items[key]));
  if (!bad) return undefined;
  return errorReply(
    500,
    'ability_invalid_output',
    `Ability "${ctx.ns}/get-site-updates-v1" has invalid output. Reason: output[rollback_items][${bad}] is not of type array.`,
  );
}
