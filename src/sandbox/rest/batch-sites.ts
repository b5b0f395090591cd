import { siteStatus } from '../abilities/read.js';
import { nsCode, type SandboxContext } from '../context.js';
import { emptySite, type FleetSite } from '../fleet-types.js';
import { domainKey } from '../store.js';
import { syncSite } from '../sync.js';

type Result = Record<string, unknown>;

/** Per-item error in the batch result shape `{id, error:{code, message, data:{status}}}`. */
export function itemError(id: number, code: string, message: string, status: number): Result {
  return { id, error: { code, message, data: { status } } };
}

function summary(site: FleetSite): Result {
  return { id: site.id, url: site.url, name: site.name, status: siteStatus(site) };
}

/** One `sites.<action>` element (a numeric site ID), as the shipped controller runs it. */
export function runSiteAction(ctx: SandboxContext, action: string, id: number): Result {
  const site = ctx.store.site(id);
  if (!site) return itemError(id, nsCode(ctx, 'rest_invalid_site_id'), 'Invalid or not found ID.', 404);
  switch (action) {
    case 'sync':
      return syncSite(ctx, site) ? { success: 1, data: summary(site) } : { success: 0, data: [] };
    case 'reconnect':
      if (site.offline) return { success: 0, error: 'Site is known to be offline.' };
      ctx.store.changeSite(site, (s) => {
        s.syncErrors = false;
      });
      return { success: 1, data: summary(site) };
    case 'disconnect':
      ctx.store.changeSite(site, (s) => {
        s.syncErrors = true;
      });
      return { success: 1, data: summary(site) };
    case 'suspend':
      ctx.store.changeSite(site, (s) => {
        s.suspended = true;
      });
      return { success: 1, data: summary(site) };
    case 'check':
      return { success: 1, data: { ...summary(site), online: !site.offline } };
    case 'remove':
      ctx.store.removeSite(site);
      return { success: 1, data: { id: site.id } };
    case 'plugins':
      return {
        success: 1,
        data: site.plugins.map((p) => ({ slug: p.slug, name: p.name, version: p.version })),
      };
    case 'themes':
      return {
        success: 1,
        data: site.themes.map((t) => ({ slug: t.slug, name: t.name, version: t.version })),
      };
    default:
      return { success: 1, data: summary(site) };
  }
}

/**
 * `sites.create`: url, name, admin and one of uniqueid/adminpassword; with `batchSiteNameOptional`
 * (release 6.1) the name is derived from the URL when absent.
 */
export function createSite(ctx: SandboxContext, payload: unknown): Result {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  if (typeof p.url !== 'string' || !/^https?:\/\/[^/\s]+/.test(p.url))
    return { success: 0, error: 'Invalid URL.' };
  // The spec requires `name`; release 6.1 derives it from the URL (quirk batchSiteNameOptional).
  if (!ctx.quirks.batchSiteNameOptional && (typeof p.name !== 'string' || p.name.trim() === ''))
    return { success: 0, error: 'Site name is required.' };
  if (typeof p.admin !== 'string' || p.admin === '')
    return { success: 0, error: 'Administrator username is required.' };
  if (typeof p.uniqueid !== 'string' && typeof p.adminpassword !== 'string') {
    return { success: 0, error: 'A unique security ID or the administrator password is required.' };
  }
  const existing = ctx.store.resolve(domainKey(p.url));
  if (existing) return { success: 0, error: 'This site is already connected.', found_id: existing.id };
  const url = p.url.endsWith('/') ? p.url : `${p.url}/`;
  const name = typeof p.name === 'string' && p.name !== '' ? p.name : domainKey(url);
  const site = emptySite(ctx.store.nextSiteId(), url, name);
  ctx.store.addSite(site);
  return { success: 1, message: 'Site added successfully.', data: summary(site) };
}
