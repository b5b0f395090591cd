import { jobTimestamp } from '../clock.js';
import { canAccess, nsCode, type SandboxContext } from '../context.js';
import type { FleetItem, FleetSite, FleetUser } from '../fleet-types.js';
import { ok, type Reply } from '../http-util.js';
import { syncSite } from '../sync.js';
import { type AbilityCall, notFoundMessage, pageOf, type SiteCall } from './call.js';
import { siteStatus } from './read.js';

/**
 * The read-only site abilities and `sync-sites-v1`, in the shipped shapes (the catalogue's output
 * schemas). The fleet format has no active/inactive state: every plugin is active, and the first
 * theme is the active one.
 */

function filtered(ctx: SandboxContext, user: FleetUser, input: Record<string, unknown>): FleetSite[] {
  const status = input.status as string | undefined;
  const tags = input.tag_ids as unknown[] | undefined;
  return ctx.store
    .sites()
    .filter(
      (site) =>
        canAccess(user, site) &&
        (status === undefined || siteStatus(site) === status) &&
        (input.client_id === undefined || site.clientId === input.client_id) &&
        (tags === undefined ||
          tags.length === 0 ||
          tags.some((id) => (site.tagIds ?? []).includes(id as number))),
    );
}

export function countSites(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  return ok({ total: filtered(ctx, user, input).length });
}

export function getSitesBasic(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const page = (input.page as number | undefined) ?? 1;
  const perPage = (input.per_page as number | undefined) ?? 20;
  const sites = filtered(ctx, user, input);
  const items = pageOf(sites, page, perPage).map((site) => ({ id: site.id, url: site.url, name: site.name }));
  return ok({ items, page, per_page: perPage, total: sites.length });
}

export function getSite(ctx: SandboxContext, { site, input }: SiteCall): Reply {
  const body: Record<string, unknown> = {
    id: site.id,
    url: site.url,
    name: site.name,
    status: siteStatus(site),
    client_id: site.clientId,
    wp_version: site.core.current,
    php_version: '8.2',
    last_sync: site.lastSync === undefined ? null : jobTimestamp(site.lastSync),
    admin_username: 'admin',
    child_version: site.connectorVersion,
    notes: '',
  };
  if (input.include_stats === true) {
    const visible = ctx.store.visible(site);
    body.stats = {
      plugin_updates: visible.plugins.length,
      theme_updates: visible.themes.length,
      wp_update_available: visible.core.length > 0,
      health_score: null,
    };
  }
  return ok(body);
}

/** Installed items as the dashboard stored them at the last sync; `update_version` ignores no ignore. */
function itemList(
  items: readonly FleetItem[],
  isActive: (item: FleetItem, index: number) => boolean,
  input: Record<string, unknown>,
) {
  const status = (input.status as string | undefined) ?? 'all';
  return items
    .map((item, index) => ({
      slug: item.slug,
      name: item.name,
      version: item.version,
      active: isActive(item, index),
      update_version: item.update,
    }))
    .filter(
      (item) =>
        (status === 'all' || item.active === (status === 'active')) &&
        (input.has_update === undefined || (item.update_version !== null) === input.has_update),
    );
}

export function getSitePlugins(_ctx: SandboxContext, { site, input }: SiteCall): Reply {
  const plugins = itemList(site.plugins, () => true, input);
  return ok({ site_id: site.id, site_url: site.url, plugins, total: plugins.length });
}

export function getSiteThemes(_ctx: SandboxContext, { site, input }: SiteCall): Reply {
  const themes = itemList(site.themes, (_item, index) => index === 0, input);
  return ok({
    site_id: site.id,
    site_url: site.url,
    active_theme: site.themes[0]?.slug ?? '',
    themes,
    total: themes.length,
  });
}

/**
 * Syncs the selected sites ([] or absent = every site of the user) now, or queues a `sync_` job
 * when more than `queueThreshold` sites are selected, as runs are.
 */
export function syncSites(ctx: SandboxContext, { user, input }: AbilityCall): Reply {
  const ids = Array.isArray(input.site_ids_or_domains) ? input.site_ids_or_domains : [];
  const errors: { identifier: string | number; code: string; message: string }[] = [];
  const sites: FleetSite[] = [];
  if (ids.length === 0) sites.push(...ctx.store.sites().filter((s) => canAccess(user, s)));
  for (const id of ids) {
    const site = ctx.store.resolve(id as string | number);
    if (!site)
      errors.push({
        identifier: id as string | number,
        code: nsCode(ctx, 'site_not_found'),
        message: notFoundMessage(id),
      });
    else if (!canAccess(user, site))
      errors.push({
        identifier: id as string | number,
        code: nsCode(ctx, 'access_denied'),
        message: 'You do not have permission to access this site.',
      });
    else if (!sites.includes(site)) sites.push(site);
  }
  if (sites.length > ctx.queueThreshold) {
    const jobId = ctx.newJobId('sync');
    ctx.jobs.enqueue(
      sites.map((site) => ({ siteId: site.id, kinds: [], slugs: null })),
      jobId,
      'sync',
    );
    return ok({
      queued: true,
      job_id: jobId,
      status_url: `${ctx.baseUrl}/wp-json/${ctx.ns}/v2/jobs/${jobId}`,
      sites_queued: sites.length,
      errors,
    });
  }
  const synced: { id: number; url: string; name: string }[] = [];
  for (const site of sites) {
    if (syncSite(ctx, site)) synced.push({ id: site.id, url: site.url, name: site.name });
    else
      errors.push({
        identifier: site.id,
        code: nsCode(ctx, 'site_offline'),
        message: 'Site is known to be offline.',
      });
  }
  return ok({ synced, errors, total_synced: synced.length, total_errors: errors.length });
}
